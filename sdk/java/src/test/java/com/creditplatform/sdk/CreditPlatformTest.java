package com.creditplatform.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** The Java SDK against the real /v1 handlers (started by tests/sdk/java-sdk.test.ts with a fresh database, a tenant,
 *  credentials and a webhook worker, passed in CREDIT_PLATFORM_TEST_*). Faults are injected by a local proxy. */
class CreditPlatformTest {
  static final String BASE = System.getenv("CREDIT_PLATFORM_TEST_URL");
  static final String TENANT = System.getenv("CREDIT_PLATFORM_TEST_TENANT");
  static final String KEY = System.getenv("CREDIT_PLATFORM_TEST_KEY");
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static CreditPlatform client(String base) {
    return CreditPlatform.builder().baseUrl(base).tenantId(TENANT).apiKey(KEY).retryBaseDelay(Duration.ofMillis(50)).build();
  }

  static String cpf() {
    int[] d = new int[11];
    for (int i = 0; i < 9; i++) d[i] = ThreadLocalRandom.current().nextInt(10);
    for (int n = 9; n < 11; n++) {
      int sum = 0;
      for (int i = 0; i < n; i++) sum += d[i] * (n + 1 - i);
      d[n] = (sum * 10 % 11) % 10;
    }
    return Arrays.stream(d).mapToObj(String::valueOf).collect(Collectors.joining());
  }

  /** A proxy in front of the server: per request number, "pass", "429" (or "429:&lt;Retry-After&gt;"), "409-retryable" (a
   *  409 {@code conflict} with {@code retryable: true} and Retry-After 1: a race lost before anything changed), "409" (a
   *  conflict that stays), or "drop" (after the server acted). */
  static final class Proxy implements AutoCloseable {
    final HttpServer server;
    final List<String[]> seen = new CopyOnWriteArrayList<>();

    Proxy(IntFunction<String> fault) throws IOException {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/", exchange -> {
        try {
          relay(exchange, fault);
        } catch (IOException | RuntimeException e) {
          e.printStackTrace();
          throw e;
        }
      });
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void relay(HttpExchange exchange, IntFunction<String> fault) throws IOException {
      byte[] body = exchange.getRequestBody().readAllBytes();
      seen.add(new String[] {exchange.getRequestURI().toString(), exchange.getRequestHeaders().getFirst("x-request-id")});
      String action = fault.apply(seen.size());
      if (action.startsWith("429")) {
        byte[] problem = "{\"type\":\"urn:credit-platform:problem:rate_limited\",\"title\":\"Too Many Requests\",\"status\":429,\"code\":\"rate_limited\"}".getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("content-type", "application/problem+json");
        exchange.getResponseHeaders().add("retry-after", action.length() > 4 ? action.substring(4) : "1");
        exchange.sendResponseHeaders(429, problem.length);
        exchange.getResponseBody().write(problem);
        exchange.close();
        return;
      }
      if (action.equals("409") || action.equals("409-retryable")) {
        boolean retryable = action.equals("409-retryable");
        byte[] problem = ("{\"type\":\"urn:credit-platform:problem:conflict\",\"title\":\"Conflict\",\"status\":409,\"code\":\"conflict\",\"detail\":\"Lost a race\""
            + (retryable ? ",\"retryable\":true}" : "}")).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("content-type", "application/problem+json");
        if (retryable) exchange.getResponseHeaders().add("retry-after", "1");
        exchange.sendResponseHeaders(409, problem.length);
        exchange.getResponseBody().write(problem);
        exchange.close();
        return;
      }
      HttpRequest.Builder forward = HttpRequest.newBuilder(URI.create(BASE + exchange.getRequestURI()));
      exchange.getRequestHeaders().forEach((name, values) -> {
        String n = name.toLowerCase();
        if (!List.of("host", "content-length", "connection", "upgrade", "http2-settings").contains(n)) values.forEach(v -> forward.header(name, v));
      });
      forward.method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
      HttpResponse<byte[]> answer;
      try {
        answer = HTTP.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
      if (action.equals("drop")) {
        exchange.close(); // the server did the work; the client never hears of it
        return;
      }
      answer.headers().map().forEach((name, values) -> {
        if (!List.of("content-length", "transfer-encoding", "connection").contains(name.toLowerCase())) exchange.getResponseHeaders().put(name, values);
      });
      exchange.sendResponseHeaders(answer.statusCode(), answer.body().length == 0 ? -1 : answer.body().length);
      exchange.getResponseBody().write(answer.body());
      exchange.close();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  @Test
  void everyDocumentedOperationHasAMethod() throws Exception {
    JsonNode document = JSON.readTree(Files.readString(Path.of(System.getenv("CREDIT_PLATFORM_TEST_OPENAPI"))));
    List<String> ids = new ArrayList<>();
    document.get("paths").forEach(item -> item.forEach(op -> ids.add(op.get("operationId").asText())));
    Collections.sort(ids);
    JsonNode live = JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(BASE + "/v1/openapi.json")).build(), HttpResponse.BodyHandlers.ofString()).body());
    List<String> liveIds = new ArrayList<>();
    live.get("paths").forEach(item -> item.forEach(op -> liveIds.add(op.get("operationId").asText())));
    Collections.sort(liveIds);
    assertEquals(liveIds, ids);
    assertEquals(ids, Operations.ALL.keySet().stream().sorted().toList());
    List<String> methods = Arrays.stream(CreditPlatform.class.getMethods()).map(Method::getName).toList();
    assertEquals(List.of(), ids.stream().filter(id -> !methods.contains(id)).toList());
  }

  @Test
  void creditFlow() {
    CreditPlatform api = client(BASE);
    assertEquals(TENANT, api.getHealth().get("tenant").asText());
    JsonNode customer = api.createCustomer(Request.body(Map.of("document", cpf(), "name", "Maria Java", "birth_date", "1960-05-10", "payroll", Map.of("type", "inss", "benefit_number", "1234567890"))));
    String customerId = customer.get("id").asText();
    Map<String, Object> sim = new TreeMap<>(Map.of("product", "inss_payroll", "requested_amount", 1_000_000, "term", 12, "monthly_rate", "0.0180", "disbursement_date", "2026-03-02", "first_due_date", "2026-04-02"));
    sim.put("customer_id", customerId);
    JsonNode simulation = api.createSimulation(Request.body(sim));
    assertEquals(12, simulation.get("schedule").size());
    JsonNode query = api.createMarginQuery(Request.body(Map.of("customer_id", customerId)));
    JsonNode proposal = api.createProposal(Request.body(Map.of("customer_id", customerId, "simulation_id", simulation.get("id").asText(), "margin_query_id", query.get("id").asText())));
    String proposalId = proposal.get("id").asText();
    assertEquals("pending_review", api.submitProposal(proposalId).get("status").asText());
    assertEquals("approved", api.approveProposal(proposalId).get("status").asText());
    assertEquals("signed", api.signProposal(proposalId).get("status").asText());
    assertEquals("endorsed", api.createEndorsement(Request.body(Map.of("proposal_id", proposalId))).get("status").asText());
    JsonNode contract = api.issueContract(Request.body(Map.of("proposal_id", proposalId)));
    assertEquals("active", contract.get("status").asText());
    JsonNode installments = api.listContractInstallments(contract.get("id").asText(), Request.create().query("limit", 100));
    assertEquals(12, installments.get("data").size());
    JsonNode charge = api.createCharge(Request.body(Map.of("contract_id", contract.get("id").asText(), "method", "pix")));
    assertEquals("pending", charge.get("status").asText());
    assertTrue(charge.get("pix").get("brcode").asText().startsWith("000201"));
  }

  @Test
  void oauthClientCredentials() {
    CreditPlatform api = CreditPlatform.builder().baseUrl(BASE).tenantId(TENANT)
        .clientCredentials(System.getenv("CREDIT_PLATFORM_TEST_CLIENT_ID"), System.getenv("CREDIT_PLATFORM_TEST_CLIENT_SECRET")).build();
    for (int i = 0; i < 3; i++) assertEquals("ok", api.getHealth().get("status").asText());
    ApiException denied = assertThrows(ApiException.class, () -> api.createCustomer(Request.body(Map.of("document", cpf(), "name", "No write scope"))));
    assertEquals(403, denied.status());
    assertEquals("insufficient_permissions", denied.code());
  }

  @Test
  void retriesA429AfterRetryAfter() throws Exception {
    try (Proxy proxy = new Proxy(n -> n == 1 ? "429" : "pass")) {
      Instant began = Instant.now();
      assertEquals("ok", client(proxy.url()).getHealth().get("status").asText());
      assertTrue(Duration.between(began, Instant.now()).toMillis() >= 1000);
      assertEquals(List.of("/v1/health", "/v1/health"), proxy.seen.stream().map(s -> s[0]).toList());
    }
  }

  @Test
  void retriesARetryable409ConflictAfterRetryAfterUnderTheSameRequestId() throws Exception {
    try (Proxy proxy = new Proxy(n -> n == 1 ? "409-retryable" : "pass")) {
      String document = cpf();
      Instant began = Instant.now();
      JsonNode made = client(proxy.url()).createCustomer(Request.body(Map.of("document", document, "name", "Lost A Race")));
      assertTrue(Duration.between(began, Instant.now()).toMillis() >= 1000);
      assertEquals(2, proxy.seen.size());
      assertTrue(proxy.seen.get(0)[1] != null && !proxy.seen.get(0)[1].isEmpty());
      assertEquals(proxy.seen.get(0)[1], proxy.seen.get(1)[1]);
      JsonNode found = client(BASE).listCustomers(Request.create().query("document", document));
      assertEquals(1, found.get("data").size());
      assertEquals(made.get("id").asText(), found.get("data").get(0).get("id").asText());
    }
    try (Proxy proxy = new Proxy(n -> "409")) {
      ApiException e = assertThrows(ApiException.class, () -> client(proxy.url()).createCustomer(Request.body(Map.of("document", cpf(), "name", "Conflict Stays"))));
      assertEquals(409, e.status());
      assertEquals("conflict", e.code());
      assertFalse(e.retryable());
      assertEquals(1, proxy.seen.size());
      assertEquals(proxy.seen.get(0)[1], e.requestId());
    }
    // Once the retries are spent, the exception says the same request may be sent again (with its requestId).
    try (Proxy proxy = new Proxy(n -> "409-retryable")) {
      CreditPlatform api = CreditPlatform.builder().baseUrl(proxy.url()).tenantId(TENANT).apiKey(KEY).maxRetries(0).build();
      ApiException e = assertThrows(ApiException.class, () -> api.createCustomer(Request.body(Map.of("document", cpf(), "name", "Still Racing"))));
      assertEquals(409, e.status());
      assertTrue(e.retryable());
      assertEquals(1.0, e.retryAfterSeconds());
      assertEquals(1, proxy.seen.size());
      assertEquals(proxy.seen.get(0)[1], e.requestId());
    }
  }

  @Test
  void retriesAPostAfterADroppedConnectionCreatingOneObject() throws Exception {
    try (Proxy proxy = new Proxy(n -> n == 1 ? "drop" : "pass")) {
      String document = cpf();
      JsonNode made = client(proxy.url()).createCustomer(Request.body(Map.of("document", document, "name", "Dropped Once")));
      assertEquals(2, proxy.seen.size());
      assertEquals(proxy.seen.get(0)[1], proxy.seen.get(1)[1]);
      JsonNode found = client(BASE).listCustomers(Request.create().query("document", document));
      assertEquals(1, found.get("data").size());
      assertEquals(made.get("id").asText(), found.get("data").get(0).get("id").asText());
    }
  }

  @Test
  void resendingAnUnknownOutcomeWithTheErrorsRequestIdCreatesOneObject() throws Exception {
    String document = cpf();
    Map<String, Object> body = Map.of("document", document, "name", "Unknown Outcome");
    CreditPlatformException.ConnectionException lost;
    try (Proxy proxy = new Proxy(n -> "drop")) {
      CreditPlatform api = CreditPlatform.builder().baseUrl(proxy.url()).tenantId(TENANT).apiKey(KEY).retryBaseDelay(Duration.ofMillis(50)).maxRetries(1).build();
      lost = assertThrows(CreditPlatformException.ConnectionException.class, () -> api.createCustomer(Request.body(body)));
      assertEquals(2, proxy.seen.size());
      assertEquals(proxy.seen.get(0)[1], lost.requestId());
      assertEquals(proxy.seen.get(1)[1], lost.requestId());
    }
    // The server created it; sent again under the error's id, the call answers that customer instead of a second one.
    JsonNode made = client(BASE).createCustomer(Request.body(body).requestId(lost.requestId()));
    JsonNode found = client(BASE).listCustomers(Request.create().query("document", document));
    assertEquals(1, found.get("data").size());
    assertEquals(made.get("id").asText(), found.get("data").get(0).get("id").asText());
  }

  @Test
  void throwsARetryAfterAboveTheCapAtOnce() throws Exception {
    try (Proxy proxy = new Proxy(n -> "429:120")) {
      Instant began = Instant.now();
      String id = "java-cap-" + cpf();
      ApiException e = assertThrows(ApiException.class, () -> client(proxy.url()).createCustomer(Request.body(Map.of("document", cpf(), "name", "Come Back Tomorrow")).requestId(id)));
      assertTrue(Duration.between(began, Instant.now()).toMillis() < 5000);
      assertEquals(429, e.status());
      assertEquals(120.0, e.retryAfterSeconds());
      assertEquals("120", e.headers().firstValue("retry-after").orElse(null));
      assertEquals(1, proxy.seen.size());
      assertEquals(id, e.requestId());
      assertEquals(id, proxy.seen.get(0)[1]);
    }
    try (Proxy proxy = new Proxy(n -> "429:1")) {
      CreditPlatform api = CreditPlatform.builder().baseUrl(proxy.url()).tenantId(TENANT).apiKey(KEY).maxRetryAfter(Duration.ofMillis(500)).build();
      ApiException e = assertThrows(ApiException.class, api::getHealth);
      assertEquals(1.0, e.retryAfterSeconds());
      assertEquals(1, proxy.seen.size());
    }
  }

  /** A server that answers 200 with a Content-Length and then trickles its body a byte every 100 ms: only a deadline
   *  over the whole exchange ends the wait (HttpRequest.timeout stops applying once the headers arrive). */
  @Test
  void aStalledBodyTimesOutAndTheErrorCarriesTheRequestId() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    CountDownLatch stop = new CountDownLatch(1);
    ExecutorService pool = Executors.newCachedThreadPool();
    HttpServer stalled = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    stalled.setExecutor(pool);
    stalled.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      seen.add(exchange.getRequestHeaders().getFirst("x-request-id"));
      exchange.getResponseHeaders().add("content-type", "application/json");
      exchange.sendResponseHeaders(200, 1000);
      try {
        exchange.getResponseBody().write("{\"id\": \"".getBytes(StandardCharsets.UTF_8));
        exchange.getResponseBody().flush();
        while (!stop.await(100, TimeUnit.MILLISECONDS)) {
          exchange.getResponseBody().write('x');
          exchange.getResponseBody().flush();
        }
      } catch (IOException | InterruptedException e) {
        // the client gave up
      } finally {
        exchange.close();
      }
    });
    stalled.start();
    try {
      String url = "http://127.0.0.1:" + stalled.getAddress().getPort();
      CreditPlatform api = CreditPlatform.builder().baseUrl(url).tenantId(TENANT).apiKey(KEY).retryBaseDelay(Duration.ofMillis(50)).timeout(Duration.ofMillis(500)).maxRetries(1).build();
      Instant began = Instant.now();
      CreditPlatformException.TimeoutException e = assertThrows(CreditPlatformException.TimeoutException.class, () -> api.createCustomer(Request.body(Map.of("document", cpf(), "name", "Stalled"))));
      assertTrue(Duration.between(began, Instant.now()).toMillis() < 4000); // two attempts of 500 ms, not a body that never ends
      assertEquals(2, seen.size());
      assertEquals(seen.get(0), e.requestId());
      assertEquals(seen.get(1), e.requestId());
      CreditPlatformException.TimeoutException mine = assertThrows(CreditPlatformException.TimeoutException.class,
          () -> api.createCustomer(Request.body(Map.of("document", cpf(), "name", "Stalled")).requestId("java-mine-1").timeout(Duration.ofMillis(300))));
      assertEquals("java-mine-1", mine.requestId());
    } finally {
      stop.countDown();
      stalled.stop(0);
      pool.shutdownNow();
    }
  }

  @Test
  void acceptsOnlySandboxOrProductionAsTheEnvironment() {
    for (String wrong : List.of("Production", "prod", "SANDBOX", "")) {
      assertThrows(IllegalArgumentException.class, () -> CreditPlatform.builder().environment(wrong).baseUrl(wrong, BASE).tenantId(TENANT).apiKey("sk_live_x").build());
    }
    CreditPlatform sandbox = CreditPlatform.builder().environment("sandbox").baseUrl("sandbox", BASE).tenantId(TENANT).apiKey(KEY).build();
    assertEquals("ok", sandbox.getHealth().get("status").asText());
    assertThrows(CreditPlatformException.class, () -> CreditPlatform.builder().environment("production").baseUrl("production", BASE).tenantId(TENANT).apiKey(KEY).build());
  }

  static int healthWith(String accessToken) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(BASE + "/v1/health")).header("authorization", "Bearer " + accessToken).header("x-tenant-id", TENANT).build();
    return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  @Test
  void neverResendsTheTokenRequestAfterADroppedConnection() throws Exception {
    String id = System.getenv("CREDIT_PLATFORM_TEST_CLIENT_ID");
    String secret = System.getenv("CREDIT_PLATFORM_TEST_CLIENT_SECRET");
    JsonNode first = client(BASE).createToken(Request.body(Map.of("grant_type", "client_credentials", "client_id", id, "client_secret", secret)));
    Map<String, Object> refresh = Map.of("grant_type", "refresh_token", "refresh_token", first.get("refresh_token").asText(), "client_id", id, "client_secret", secret);
    try (Proxy proxy = new Proxy(n -> n == 1 ? "drop" : "pass")) {
      CreditPlatformException.ConnectionException lost = assertThrows(CreditPlatformException.ConnectionException.class, () -> client(proxy.url()).createToken(Request.body(refresh)));
      assertEquals(1, proxy.seen.size());
      assertEquals(proxy.seen.get(0)[1], lost.requestId());
    }
    // The server refreshed once; a resend would have been a reuse, revoking the grant and its access tokens.
    assertEquals(200, healthWith(first.get("access_token").asText()));
    ApiException reused = assertThrows(ApiException.class, () -> client(BASE).createToken(Request.body(refresh)));
    assertEquals(400, reused.status());
    assertEquals("invalid_grant", reused.code());
    assertEquals(401, healthWith(first.get("access_token").asText()));
  }

  @Test
  void paginates() {
    CreditPlatform api = client(BASE);
    for (int i = 0; i < 3; i++) api.createCustomer(Request.body(Map.of("document", cpf(), "name", "Page " + i)));
    List<String> direct = new ArrayList<>();
    api.listCustomers(Request.create().query("limit", 100)).get("data").forEach(c -> direct.add(c.get("id").asText()));
    assertTrue(direct.size() >= 3);
    List<String> paged = StreamSupport.stream(api.paginate("listCustomers", Request.create().query("limit", 2)).spliterator(), false).map(c -> c.get("id").asText()).toList();
    assertEquals(direct, paged);
    // A list under a path parameter pages too: the id reaches the server (an unknown contract: its 404, not a missing parameter).
    Iterable<JsonNode> installments = api.paginate("listContractInstallments", Map.of("id", "ctr_01JD0000000000000000000000"), Request.create());
    ApiException unknown = assertThrows(ApiException.class, () -> installments.iterator().hasNext());
    assertEquals(404, unknown.status());
  }

  @Test
  void surfacesProblems() {
    CreditPlatform api = client(BASE);
    ApiException missing = assertThrows(ApiException.class, () -> api.getCustomer("cus_01JD0000000000000000000000"));
    assertEquals(404, missing.status());
    assertEquals("not_found", missing.code());
    assertEquals("urn:credit-platform:problem:not_found", missing.type());
    assertTrue(missing.headers().firstValue("content-type").orElse("").startsWith("application/problem+json"));
    assertTrue(missing.requestId() != null && missing.requestId().equals(missing.headers().firstValue("x-request-id").orElse(null)));
    String id = "java-invalid-" + cpf();
    ApiException invalid = assertThrows(ApiException.class, () -> api.createCustomer(Request.body(Map.of("document", "123", "name", "")).requestId(id)));
    assertEquals(400, invalid.status());
    assertEquals(id, invalid.requestId());
    assertEquals(id, invalid.headers().firstValue("x-request-id").orElse(null));
    assertEquals("validation_error", invalid.code());
    assertTrue(invalid.errors().stream().anyMatch(e -> e.param().equals("name")));
    ApiException unauthorized = assertThrows(ApiException.class, () -> CreditPlatform.builder().baseUrl(BASE).tenantId(TENANT).apiKey("sk_test_wrong").build().getHealth());
    assertEquals(401, unauthorized.status());
  }

  @Test
  void verifiesAWebhookThePlatformSigned() throws Exception {
    List<Map.Entry<String, Map<String, String>>> received = new CopyOnWriteArrayList<>();
    HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/hook", exchange -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      exchange.getRequestHeaders().forEach((k, v) -> headers.put(k, v.get(0)));
      received.add(Map.entry(body, headers));
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    receiver.start();
    try {
      CreditPlatform api = client(BASE);
      JsonNode endpoint = api.createWebhookEndpoint(Request.body(Map.of("url", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook", "event_types", List.of("customer.created"))));
      api.testWebhookEndpoint(endpoint.get("id").asText());
      long deadline = System.currentTimeMillis() + 30_000;
      while (received.isEmpty() && System.currentTimeMillis() < deadline) Thread.sleep(100); // the harness's worker delivers it
      assertFalse(received.isEmpty());
      String body = received.get(0).getKey();
      Map<String, String> headers = received.get(0).getValue();
      String secret = endpoint.get("secret").asText();
      JsonNode event = Webhooks.verify(body, headers, secret);
      assertEquals("webhook_endpoint.test", event.get("type").asText());
      assertEquals(endpoint.get("id").asText(), event.get("data").get("webhook_endpoint_id").asText());
      assertThrows(Webhooks.VerificationException.class, () -> Webhooks.verify(body.replace("test", "tesT"), headers, secret));
      String other = "whsec_" + "A".repeat(43) + "=";
      assertEquals(event.get("id").asText(), Webhooks.verify(body, headers, other, secret).get("id").asText());
      assertThrows(Webhooks.VerificationException.class, () -> Webhooks.verify(body, headers, Instant.now().plusSeconds(3600), secret));
    } finally {
      receiver.stop(0);
    }
  }

  static Map<String, String> signed(String body, String secret, String id, long timestamp) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring(6)), "HmacSHA256"));
    String signature = Base64.getEncoder().encodeToString(mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put("webhook-id", id);
    headers.put("webhook-timestamp", String.valueOf(timestamp));
    headers.put("webhook-signature", "v1," + signature);
    return headers;
  }

  @Test
  void theWebhookVerifierThrowsItsOwnErrorOnHostileInput() throws Exception {
    byte[] key = new byte[32];
    for (int i = 0; i < key.length; i++) key[i] = (byte) i;
    String secret = "whsec_" + Base64.getEncoder().encodeToString(key);
    String body = "{\"id\":\"evt_local\",\"type\":\"customer.created\",\"created_at\":\"2026-03-02T10:00:00.000Z\",\"data\":{}}";
    Map<String, String> headers = signed(body, secret, "msg_local", Instant.now().getEpochSecond());
    assertEquals("2026-03-02T10:00:00.000Z", Webhooks.verify(body, headers, secret).get("created_at").asText());
    String good = headers.get("webhook-signature");
    for (String signature : List.of("v1,çà-not-ascii", good + "é", "v1,ñ " + good.substring(0, good.length() - 2) + "ü=")) {
      Map<String, String> hostile = new TreeMap<>(headers);
      hostile.put("webhook-signature", signature);
      assertThrows(Webhooks.VerificationException.class, () -> Webhooks.verify(body, hostile, secret));
    }
    Map<String, String> beside = new TreeMap<>(headers);
    beside.put("webhook-signature", "v1,ñ " + good);
    assertEquals("evt_local", Webhooks.verify(body, beside, secret).get("id").asText());
    for (String malformed : Arrays.asList("whsec_a", "whsec_ñ***", "whsec_", null)) {
      assertThrows(Webhooks.VerificationException.class, () -> Webhooks.verify(body, headers, malformed));
      assertThrows(Webhooks.VerificationException.class, () -> Webhooks.verify(body, headers, malformed, secret));
    }
    assertThrows(Webhooks.VerificationException.class, () -> Webhooks.verify(body, null, secret));
    assertThrows(Webhooks.VerificationException.class, () -> Webhooks.verify("not json", signed("not json", secret, "msg_local", Instant.now().getEpochSecond()), secret));
  }
}
