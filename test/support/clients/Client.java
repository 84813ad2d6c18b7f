// Java's java.net.http.HttpClient (defaults) in its own process: `java Client.java cases.json`.
// Same protocol as fetch-client.mjs; the cases file is read with a few regular expressions so the
// program needs nothing beyond the JDK.
import java.io.*;
import java.net.URI;
import java.net.http.*;
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;

public class Client {
  public static void main(String[] args) throws Exception {
    String json = Files.readString(Path.of(args[0]));
    HttpClient client = HttpClient.newHttpClient();
    Matcher m = Pattern.compile("\\{\"name\":\"([^\"]*)\",\"url\":\"([^\"]*)\",\"file\":\"([^\"]*)\",\"headers\":\\{([^}]*)\\}(?:,\"stall\":(\\d+))?\\}").matcher(json);
    while (m.find()) {
      String name = m.group(1);
      byte[] bytes = Files.readAllBytes(Path.of(m.group(3)));
      HttpRequest.BodyPublisher body = m.group(5) == null
          ? HttpRequest.BodyPublishers.ofByteArray(bytes)
          // The first bytes, then a trickle (a byte every 50 ms, far under the service's floor): a
          // client on a link that all but stopped.
          : HttpRequest.BodyPublishers.ofInputStream(() -> new SequenceInputStream(new ByteArrayInputStream(bytes), new InputStream() {
              int left = 1200;
              public int read() throws IOException {
                if (left-- <= 0) return -1;
                try { Thread.sleep(50); } catch (InterruptedException e) { throw new InterruptedIOException(); }
                return 1;
              }
              public int read(byte[] b, int off, int len) throws IOException {
                int c = read();
                if (c < 0) return -1;
                b[off] = (byte) c;
                return 1;
              }
            }));
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(m.group(2))).POST(body);
      Matcher h = Pattern.compile("\"([^\"]+)\":\"([^\"]*)\"").matcher(m.group(4));
      while (h.find()) b.header(h.group(1), h.group(2));
      try {
        HttpResponse<String> res = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        String text = res.body().length() > 500 ? res.body().substring(0, 500) : res.body();
        System.out.println("{\"name\":\"" + name + "\",\"status\":" + res.statusCode() + ",\"body\":" + quote(text) + "}");
      } catch (Exception e) {
        System.out.println("{\"name\":\"" + name + "\",\"error\":" + quote(e.getClass().getSimpleName() + " " + e.getMessage()) + "}");
      }
    }
    System.exit(0);
  }

  static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      if (ch == '"' || ch == '\\') out.append('\\').append(ch);
      else if (ch < 0x20) out.append(String.format("\\u%04x", (int) ch));
      else out.append(ch);
    }
    return out.append('"').toString();
  }
}
