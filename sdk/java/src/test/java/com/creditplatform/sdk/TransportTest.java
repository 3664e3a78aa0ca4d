package com.creditplatform.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The Java SDK's request path against scripted local servers (no API, no database): what a real server cannot be made
 *  to do on demand — a token request that fails on the renewal a retry needs, 401s arriving one after the other on
 *  concurrent calls, a 201 cut mid-body on a connection that ends it, a DELETE whose answer is lost — and per-call headers. */
class TransportTest {
  static final ObjectMapper JSON = new ObjectMapper();

  record Req(int n, String method, String path, Map<String, String> headers, String body) {}

  interface Action {
    void run(Socket socket) throws Exception;
  }

  /** A raw HTTP/1.1 server: one request per connection, recorded in {@code seen}; {@code route} says what to do with it. */
  static final class Scripted implements AutoCloseable {
    final ServerSocket server;
    final List<Req> seen = new CopyOnWriteArrayList<>();
    final ExecutorService pool = Executors.newCachedThreadPool();
    final CountDownLatch stop = new CountDownLatch(1);

    Scripted(BiFunction<Req, List<Req>, Action> route) throws IOException {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      pool.execute(() -> {
        while (!server.isClosed()) {
          try {
            Socket socket = server.accept();
            pool.execute(() -> handle(socket, route));
          } catch (IOException e) {
            return;
          }
        }
      });
    }

    private void handle(Socket socket, BiFunction<Req, List<Req>, Action> route) {
      try (socket) {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
          int c = in.read();
          if (c < 0) return;
          head.write(c);
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        String[] first = lines[0].split(" ");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
          int colon = lines[i].indexOf(':');
          if (colon > 0) headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        String body = new String(in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0"))), StandardCharsets.UTF_8);
        Req req;
        synchronized (seen) {
          req = new Req(seen.size() + 1, first[0], first[1], headers, body);
          seen.add(req);
        }
        route.apply(req, seen).run(socket);
      } catch (Exception e) {
        // the client went away
      }
    }

    String url() {
      return "http://127.0.0.1:" + server.getLocalPort();
    }

    List<Req> of(String path) {
      return seen.stream().filter(r -> r.path().startsWith(path)).toList();
    }

    @Override
    public void close() throws IOException {
      stop.countDown();
      server.close();
      pool.shutdownNow();
    }
  }

  static Action answer(int status, String json, Map<String, String> headers, long delayMs) {
    return socket -> {
      if (delayMs > 0) Thread.sleep(delayMs);
      byte[] payload = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
      StringBuilder head = new StringBuilder("HTTP/1.1 " + status + " X\r\n");
      head.append("content-type: ").append(status >= 400 ? "application/problem+json" : "application/json").append("\r\n");
      head.append("content-length: ").append(payload.length).append("\r\nconnection: close\r\n");
      headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
      socket.getOutputStream().write((head + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(payload);
      socket.getOutputStream().flush();
    };
  }

  static Action answer(int status, String json) {
    return answer(status, json, Map.of(), 0);
  }

  static final Action DROP = socket -> {}; // the connection closes without an answer (the server may have acted)

  static Action raw(String data) {
    return socket -> {
      socket.getOutputStream().write(data.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
    };
  }

  static String problem(int status, String code, String extra) {
    return "{\"type\":\"urn:credit-platform:problem:" + code + "\",\"title\":\"" + code + "\",\"status\":" + status + ",\"code\":\"" + code + "\"" + extra + "}";
  }

  static final Action REFUSED_TOKEN = answer(401, problem(401, "invalid_client", ",\"request_id\":\"token-request-id\""), Map.of("x-request-id", "token-request-id"), 0);

  static CreditPlatform oauth(String url, Duration timeout, int maxRetries) {
    return CreditPlatform.builder().baseUrl(url).tenantId("ten_1").clientCredentials("cli_1", "secret-1").retryBaseDelay(Duration.ofMillis(10)).timeout(timeout).maxRetries(maxRetries).build();
  }

  static CreditPlatform keyed(String url, int maxRetries) {
    return CreditPlatform.builder().baseUrl(url).tenantId("ten_1").apiKey("sk_test_key").retryBaseDelay(Duration.ofMillis(10)).maxRetries(maxRetries).build();
  }

  static long tokens(List<Req> seen) {
    return seen.stream().filter(r -> r.path().equals("/v1/auth/token")).count();
  }

  static final Map<String, Object> CUSTOMER = Map.of("document", "52998224725", "name", "Maria");

  /** Tokens that last a minute are renewed at once: the retry after an attempt whose outcome is unknown needs a new one,
   *  and the token request is refused — the call's exception is that unknown outcome, with the call's own request id. */
  @Test
  void aFailedTokenRenewalAfterAnUnknownOutcomeIsThatOutcomeWithTheCallsRequestId() throws Exception {
    for (boolean timedOut : List.of(false, true)) {
      CountDownLatch released = new CountDownLatch(1);
      Action fault = timedOut ? socket -> released.await(30, TimeUnit.SECONDS) : DROP;
      try (Scripted server = new Scripted((req, seen) -> !req.path().equals("/v1/auth/token") ? fault
          : tokens(seen) == 1 ? answer(200, "{\"access_token\":\"t1\",\"expires_in\":60}") : REFUSED_TOKEN)) {
        CreditPlatform api = oauth(server.url(), Duration.ofMillis(500), 3);
        Class<? extends CreditPlatformException> expected = timedOut ? CreditPlatformException.TimeoutException.class : CreditPlatformException.ConnectionException.class;
        CreditPlatformException e = assertThrows(expected, () -> api.createCustomer(Request.body(CUSTOMER).requestId("call-id-1")));
        assertEquals("call-id-1", e.requestId());
        ApiException cause = assertInstanceOf(ApiException.class, e.getCause());
        assertEquals("token-request-id", cause.requestId());
        assertEquals(List.of("call-id-1"), server.of("/v1/customers").stream().map(r -> r.headers().get("x-request-id")).toList());
      } finally {
        released.countDown();
      }
    }
  }

  @Test
  void aTokenRenewalRefusedAfterA401CarriesTheCallsRequestId() throws Exception {
    try (Scripted server = new Scripted((req, seen) -> req.path().equals("/v1/auth/token")
        ? (tokens(seen) == 1 ? answer(200, "{\"access_token\":\"t1\",\"expires_in\":3600}") : REFUSED_TOKEN)
        : answer(401, problem(401, "unauthorized", "")))) {
      CreditPlatform api = oauth(server.url(), Duration.ofSeconds(5), 3);
      ApiException e = assertThrows(ApiException.class, () -> api.createCustomer(Request.body(CUSTOMER).requestId("call-id-2")));
      assertEquals(401, e.status());
      assertEquals("invalid_client", e.code());
      assertEquals("call-id-2", e.requestId());
      assertEquals("token-request-id", ((ApiException) e.getCause()).requestId());
      ApiException get = assertThrows(ApiException.class, api::getHealth);
      assertNull(get.requestId()); // a GET sends no id: none, not the token answer's
    }
  }

  @Test
  void concurrent401sOneAfterTheOtherRenewTheTokenOnce() throws Exception {
    AtomicInteger refusals = new AtomicInteger();
    // No 401 is answered before all five calls have sent the first token (a call started late on a busy machine would
    // otherwise send the renewed one and never see a 401); then they are answered 150 ms apart.
    CountDownLatch allSent = new CountDownLatch(5);
    try (Scripted server = new Scripted((req, seen) -> {
      if (req.path().equals("/v1/auth/token")) return answer(200, "{\"access_token\":\"t" + tokens(seen) + "\",\"expires_in\":3600}");
      if ("Bearer t1".equals(req.headers().get("authorization"))) {
        Action refuse = answer(401, problem(401, "unauthorized", ""), Map.of(), 150L * refusals.getAndIncrement());
        return socket -> {
          allSent.countDown();
          allSent.await(15, TimeUnit.SECONDS);
          refuse.run(socket);
        };
      }
      return answer(200, "{\"status\":\"ok\"}");
    })) {
      CreditPlatform api = oauth(server.url(), Duration.ofSeconds(10), 3);
      ExecutorService pool = Executors.newFixedThreadPool(5);
      try {
        List<Future<JsonNode>> calls = new ArrayList<>();
        for (int i = 0; i < 5; i++) calls.add(pool.submit(() -> api.getHealth()));
        for (Future<JsonNode> call : calls) assertEquals("ok", call.get(20, TimeUnit.SECONDS).get("status").asText());
      } finally {
        pool.shutdownNow();
      }
      assertEquals(5, refusals.get());
      assertEquals(2, tokens(server.seen));
    }
  }

  @Test
  void a401TokenRenewalIsNotARetry() throws Exception {
    try (Scripted server = new Scripted((req, seen) -> {
      if (req.path().equals("/v1/auth/token")) return answer(200, "{\"access_token\":\"t" + tokens(seen) + "\",\"expires_in\":3600}");
      long n = seen.stream().filter(r -> r.path().equals("/v1/health")).count();
      return n == 1 ? answer(401, problem(401, "unauthorized", "")) : n == 2 ? answer(503, problem(503, "unavailable", "")) : answer(200, "{\"status\":\"ok\"}");
    })) {
      assertEquals("ok", oauth(server.url(), Duration.ofSeconds(5), 1).getHealth().get("status").asText());
      assertEquals(3, server.of("/v1/health").size());
    }
  }

  static final Action CUT = raw("HTTP/1.1 201 Created\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{\"id\": \"cus_01");

  @Test
  void a2xxWhoseBodyIsNotJsonIsAConnectionExceptionRetriedUnderTheSameRequestId() throws Exception {
    try (Scripted server = new Scripted((req, seen) -> req.n() == 1 ? CUT : answer(201, "{\"id\":\"cus_1\",\"object\":\"customer\"}"))) {
      assertEquals("cus_1", keyed(server.url(), 3).createCustomer(Request.body(CUSTOMER)).get("id").asText());
      assertEquals(2, server.seen.size());
      assertEquals(server.seen.get(0).headers().get("x-request-id"), server.seen.get(1).headers().get("x-request-id"));
    }
    try (Scripted always = new Scripted((req, seen) -> CUT)) {
      CreditPlatformException.ConnectionException e = assertThrows(CreditPlatformException.ConnectionException.class, () -> keyed(always.url(), 0).createCustomer(Request.body(CUSTOMER).requestId("cut-1")));
      assertEquals("cut-1", e.requestId());
    }
  }

  @Test
  void aDelete404AfterAnUnknownOutcomeIsItsSuccess() throws Exception {
    try (Scripted server = new Scripted((req, seen) -> req.path().endsWith("/whe_1") && req.n() == 1 ? DROP : answer(404, problem(404, "not_found", "")))) {
      CreditPlatform api = keyed(server.url(), 3);
      JsonNode deleted = api.deleteWebhookEndpoint("whe_1");
      assertEquals(JSON.readTree("{\"id\":\"whe_1\",\"object\":\"webhook_endpoint\",\"deleted\":true}"), deleted);
      assertEquals(List.of("DELETE", "DELETE"), server.seen.stream().map(Req::method).toList());
      ApiException first = assertThrows(ApiException.class, () -> api.deleteWebhookEndpoint("whe_2"));
      assertEquals(404, first.status());
      assertEquals(3, server.seen.size());
    }
  }

  /** The documented 200 answer of deleteWebhookEndpoint (sdk/openapi.json), its $ref resolved. */
  static JsonNode deletedSchema() throws IOException {
    String file = System.getenv("CREDIT_PLATFORM_TEST_OPENAPI");
    JsonNode document = JSON.readTree(Files.readString(file != null ? Path.of(file) : Path.of("sdk", "openapi.json")));
    JsonNode schema = document.at("/paths/~1v1~1webhook-endpoints~1{id}/delete/responses/200/content/application~1json/schema");
    while (schema.has("$ref")) schema = document.get("components").get("schemas").get(schema.get("$ref").asText().replaceAll(".*/", ""));
    return schema;
  }

  @Test
  void aDelete404AfterAnAttemptThatTimedOutAwaitingItsAnswerIsItsDocumentedSuccess() throws Exception {
    CountDownLatch released = new CountDownLatch(1);
    try (Scripted server = new Scripted((req, seen) -> req.n() == 1 ? socket -> released.await(30, TimeUnit.SECONDS) : answer(404, problem(404, "not_found", "")))) {
      CreditPlatform api = CreditPlatform.builder().baseUrl(server.url()).tenantId("ten_1").apiKey("sk_test_key").retryBaseDelay(Duration.ofMillis(10)).timeout(Duration.ofMillis(500)).build();
      JsonNode deleted = api.deleteWebhookEndpoint("whe_3");
      assertEquals(JSON.readTree("{\"id\":\"whe_3\",\"object\":\"webhook_endpoint\",\"deleted\":true}"), deleted);
      assertEquals(2, server.seen.size());
      JsonNode schema = deletedSchema();
      List<String> fields = new ArrayList<>();
      deleted.fieldNames().forEachRemaining(fields::add);
      List<String> documented = new ArrayList<>();
      schema.get("properties").fieldNames().forEachRemaining(documented::add);
      List<String> required = new ArrayList<>();
      schema.get("required").forEach(r -> required.add(r.asText()));
      fields.sort(null);
      documented.sort(null);
      required.sort(null);
      assertEquals(documented, fields);
      assertEquals(required, fields);
      schema.get("properties").fields().forEachRemaining(property -> {
        if (!property.getValue().has("enum")) return;
        List<JsonNode> allowed = new ArrayList<>();
        property.getValue().get("enum").forEach(allowed::add);
        assertTrue(allowed.contains(deleted.get(property.getKey())), property.getKey() + ": " + deleted.get(property.getKey()));
      });
    } finally {
      released.countDown();
    }
  }

  /** A client whose first connection goes to {@code first} (through the default ProxySelector the client takes when it is
   *  built) and the ones after it straight to the address asked for: a real failure to connect, then the server. */
  static CreditPlatform firstConnectionTo(SocketAddress first, String url, int maxRetries) {
    ProxySelector previous = ProxySelector.getDefault();
    AtomicInteger connections = new AtomicInteger();
    ProxySelector.setDefault(new ProxySelector() {
      @Override
      public List<Proxy> select(URI uri) {
        return connections.getAndIncrement() == 0 ? List.of(new Proxy(Proxy.Type.HTTP, first)) : List.of(Proxy.NO_PROXY);
      }

      @Override
      public void connectFailed(URI uri, SocketAddress address, IOException e) {}
    });
    try {
      return keyed(url, maxRetries);
    } finally {
      ProxySelector.setDefault(previous);
    }
  }

  @Test
  void aDelete404AfterAnAttemptThatNeverReachedTheServerThrowsTheApiException() throws Exception {
    try (Socket held = new Socket(); Scripted server = new Scripted((req, seen) -> answer(404, problem(404, "not_found", "")))) {
      held.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)); // bound, never listening: connections to it are refused
      Map<String, Supplier<SocketAddress>> unreachable = new LinkedHashMap<>();
      unreachable.put("refused", held::getLocalSocketAddress);
      unreachable.put("unresolved", () -> InetSocketAddress.createUnresolved("no-such-host.invalid", 80));
      for (Map.Entry<String, Supplier<SocketAddress>> kind : unreachable.entrySet()) {
        server.seen.clear();
        ApiException e = assertThrows(ApiException.class, () -> firstConnectionTo(kind.getValue().get(), server.url(), 3).deleteWebhookEndpoint("whe_TYPO"), kind.getKey());
        assertEquals(404, e.status(), kind.getKey());
        assertEquals("not_found", e.code(), kind.getKey());
        assertEquals(List.of("/v1/webhook-endpoints/whe_TYPO"), server.seen.stream().map(Req::path).toList(), kind.getKey());
        // Alone (no retry left), such an attempt is a ConnectionException saying the request was not sent.
        CreditPlatformException.ConnectionException alone = assertThrows(CreditPlatformException.ConnectionException.class,
            () -> firstConnectionTo(kind.getValue().get(), server.url(), 0).deleteWebhookEndpoint("whe_TYPO"), kind.getKey());
        assertTrue(alone.getMessage().contains("not sent"), alone.getMessage());
        assertEquals(1, server.seen.size(), kind.getKey());
      }
    }
  }

  @Test
  void aCallSendsItsExtraHeadersAndRefusesThoseTheSdkSets() throws Exception {
    try (Scripted server = new Scripted((req, seen) -> answer(202, "{\"received\":true}"))) {
      CreditPlatform api = keyed(server.url(), 3);
      api.receiveProviderNotification("bank", Request.body(Map.of("event", "x")).header("X-Provider-Signature", "sig-1"));
      assertEquals("sig-1", server.seen.get(0).headers().get("x-provider-signature"));
      for (String header : List.of("Authorization", "X-Request-Id", "x-tenant-id", "Host")) {
        CreditPlatformException e = assertThrows(CreditPlatformException.class, () -> api.getHealth(Request.create().header(header, "mine")));
        assertTrue(e.getMessage().contains("set by the SDK"), e.getMessage());
      }
      assertEquals(1, server.seen.size());
    }
  }
}
