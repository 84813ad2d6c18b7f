/** The address with `application_name` set, unless the operator set one in it already. */
export function withApplicationName(connectionString: string, name: string): string {
  const url = new URL(connectionString);
  if (!url.searchParams.has('application_name')) url.searchParams.set('application_name', name);
  return url.toString();
}
