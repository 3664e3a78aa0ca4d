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
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
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

  /** A proxy in front of the server: per request number, "pass", "429", or "drop" (after the server acted). */
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
      if (action.equals("429")) {
        byte[] problem = "{\"type\":\"urn:credit-platform:problem:rate_limited\",\"title\":\"Too Many Requests\",\"status\":429,\"code\":\"rate_limited\"}".getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("content-type", "application/problem+json");
        exchange.getResponseHeaders().add("retry-after", "1");
        exchange.sendResponseHeaders(429, problem.length);
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
      assertThrows(CreditPlatformException.ConnectionException.class, () -> client(proxy.url()).createToken(Request.body(refresh)));
      assertEquals(1, proxy.seen.size());
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
    ApiException invalid = assertThrows(ApiException.class, () -> api.createCustomer(Request.body(Map.of("document", "123", "name", ""))));
    assertEquals(400, invalid.status());
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
}
