/** Lowercase, accent- and punctuation-free words, so ASR output compares with the script that was spoken. */
export function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Share of `keys` heard in `transcript`, allowing one edit in words of five letters or more (ASR slips). */
export function keywordRecall(transcript: string, keys: string[]): number {
  const heard = words(transcript);
  const found = keys.filter((k) => heard.some((w) => w === k || (k.length >= 5 && editDistance(w, k) <= 1)));
  return found.length / keys.length;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
