using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using CreditPlatform.Sdk;
using Newtonsoft.Json.Linq;
using NUnit.Framework;

namespace CreditPlatform.Sdk.Tests
{
    /// <summary>The C# SDK against the real /v1 handlers (started by tests/sdk/csharp-sdk.test.ts with a fresh database, a
    /// tenant, credentials and a webhook worker, passed in CREDIT_PLATFORM_TEST_*). Faults are injected by a local proxy.</summary>
    [TestFixture]
    public class CreditPlatformTests
    {
        static readonly string Base = Environment.GetEnvironmentVariable("CREDIT_PLATFORM_TEST_URL");
        static readonly string Tenant = Environment.GetEnvironmentVariable("CREDIT_PLATFORM_TEST_TENANT");
        static readonly string Key = Environment.GetEnvironmentVariable("CREDIT_PLATFORM_TEST_KEY");
        static readonly Random Random = new Random();

        static CreditPlatformClient Client(string baseUrl = null) =>
            new CreditPlatformClient(new CreditPlatformOptions { BaseUrl = baseUrl ?? Base, TenantId = Tenant, ApiKey = Key, RetryBaseDelay = TimeSpan.FromMilliseconds(50) });

        static T Run<T>(Task<T> task) => task.GetAwaiter().GetResult();

        static string Cpf()
        {
            var d = new int[11];
            lock (Random) for (var i = 0; i < 9; i++) d[i] = Random.Next(10);
            for (var n = 9; n < 11; n++)
            {
                var sum = 0;
                for (var i = 0; i < n; i++) sum += d[i] * (n + 1 - i);
                d[n] = sum * 10 % 11 % 10;
            }
            return string.Concat(d);
        }

        static int FreePort()
        {
            var listener = new TcpListener(IPAddress.Loopback, 0);
            listener.Start();
            var port = ((IPEndPoint)listener.LocalEndpoint).Port;
            listener.Stop();
            return port;
        }

        /// <summary>A proxy in front of the server: per request number, "pass", "429" (or "429:&lt;Retry-After&gt;"),
        /// "409-retryable" (a 409 conflict with retryable: true and Retry-After 1: a race lost before anything changed), "409"
        /// (a conflict that stays) or "drop" (after the server acted).</summary>
        sealed class Proxy : IDisposable
        {
            readonly HttpListener listener = new HttpListener();
            readonly HttpClient upstream = new HttpClient();
            public readonly ConcurrentQueue<string[]> Seen = new ConcurrentQueue<string[]>();
            public readonly string Url;

            public Proxy(Func<int, string> fault)
            {
                Url = "http://127.0.0.1:" + FreePort() + "/";
                listener.Prefixes.Add(Url);
                listener.Start();
                Task.Run(async () =>
                {
                    while (listener.IsListening)
                    {
                        HttpListenerContext context;
                        try { context = await listener.GetContextAsync(); } catch (Exception) { return; }
                        var body = new StreamReader(context.Request.InputStream).ReadToEnd();
                        Seen.Enqueue(new[] { context.Request.Url.PathAndQuery, context.Request.Headers["X-Request-Id"] });
                        var action = fault(Seen.Count);
                        if (action.StartsWith("429", StringComparison.Ordinal))
                        {
                            var problem = Encoding.UTF8.GetBytes("{\"type\":\"urn:credit-platform:problem:rate_limited\",\"title\":\"Too Many Requests\",\"status\":429,\"code\":\"rate_limited\",\"retry_at\":\"2030-01-01T00:00:00.000Z\"}");
                            context.Response.StatusCode = 429;
                            context.Response.ContentType = "application/problem+json";
                            context.Response.AddHeader("Retry-After", action.Length > 4 ? action.Substring(4) : "1");
                            context.Response.OutputStream.Write(problem, 0, problem.Length);
                            context.Response.Close();
                            continue;
                        }
                        if (action == "409" || action == "409-retryable")
                        {
                            var retryable = action == "409-retryable";
                            var problem = Encoding.UTF8.GetBytes("{\"type\":\"urn:credit-platform:problem:conflict\",\"title\":\"Conflict\",\"status\":409,\"code\":\"conflict\",\"detail\":\"Lost a race\"" + (retryable ? ",\"retryable\":true}" : "}"));
                            context.Response.StatusCode = 409;
                            context.Response.ContentType = "application/problem+json";
                            if (retryable) context.Response.AddHeader("Retry-After", "1");
                            context.Response.OutputStream.Write(problem, 0, problem.Length);
                            context.Response.Close();
                            continue;
                        }
                        var forward = new HttpRequestMessage(new HttpMethod(context.Request.HttpMethod), Base.TrimEnd('/') + context.Request.Url.PathAndQuery);
                        foreach (string name in context.Request.Headers)
                        {
                            var lower = name.ToLowerInvariant();
                            if (lower == "host" || lower == "content-length" || lower == "content-type" || lower == "connection" || lower == "expect") continue;
                            forward.Headers.TryAddWithoutValidation(name, context.Request.Headers[name]);
                        }
                        if (body.Length > 0) forward.Content = new StringContent(body, Encoding.UTF8, (context.Request.ContentType ?? "application/json").Split(';')[0]);
                        var answer = await upstream.SendAsync(forward);
                        var payload = await answer.Content.ReadAsByteArrayAsync();
                        if (action == "drop")
                        {
                            // The server did the work; the client never hears of it: the answer breaks off mid-body.
                            context.Response.StatusCode = (int)answer.StatusCode;
                            context.Response.ContentLength64 = payload.Length + 1000;
                            context.Response.OutputStream.Write(payload, 0, Math.Min(10, payload.Length));
                            context.Response.OutputStream.Flush();
                            context.Response.Abort();
                            continue;
                        }
                        context.Response.StatusCode = (int)answer.StatusCode;
                        context.Response.ContentType = answer.Content.Headers.ContentType?.ToString();
                        context.Response.OutputStream.Write(payload, 0, payload.Length);
                        context.Response.Close();
                    }
                });
            }

            public void Dispose()
            {
                listener.Stop();
                upstream.Dispose();
            }
        }

        [Test]
        public void EveryDocumentedOperationHasAMethod()
        {
            var document = JObject.Parse(File.ReadAllText(Environment.GetEnvironmentVariable("CREDIT_PLATFORM_TEST_OPENAPI")));
            var ids = document["paths"].Children<JProperty>().SelectMany(p => p.Value.Children<JProperty>().Select(op => op.Value.Value<string>("operationId"))).OrderBy(x => x, StringComparer.Ordinal).ToList();
            var live = JObject.Parse(new HttpClient().GetStringAsync(Base + "/v1/openapi.json").GetAwaiter().GetResult());
            var liveIds = live["paths"].Children<JProperty>().SelectMany(p => p.Value.Children<JProperty>().Select(op => op.Value.Value<string>("operationId"))).OrderBy(x => x, StringComparer.Ordinal).ToList();
            CollectionAssert.AreEqual(liveIds, ids);
            CollectionAssert.AreEqual(ids, Operations.All.Keys.OrderBy(x => x, StringComparer.Ordinal).ToList());
            var methods = typeof(CreditPlatformClient).GetMethods().Select(m => m.Name).ToList();
            CollectionAssert.IsEmpty(ids.Where(id => !methods.Contains(char.ToUpperInvariant(id[0]) + id.Substring(1) + "Async")).ToList());
        }

        [Test]
        public void CreditFlow()
        {
            var api = Client();
            Assert.AreEqual(Tenant, Run(api.GetHealthAsync()).Value<string>("tenant"));
            var customer = Run(api.CreateCustomerAsync(Request.WithBody(new { document = Cpf(), name = "Maria CSharp", birth_date = "1960-05-10", payroll = new { type = "inss", benefit_number = "1234567890" } })));
            var customerId = customer.Value<string>("id");
            // Timestamps stay the exact strings the API sent (Json.NET's default would make them DateTime, dropping the Z).
            Assert.AreEqual(JTokenType.String, customer["created_at"].Type);
            StringAssert.IsMatch(@"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$", (string)customer["created_at"]);
            Assert.AreEqual(RawField("/v1/customers/" + customerId, "created_at"), (string)Run(api.GetCustomerAsync(customerId))["created_at"]);
            var simulation = Run(api.CreateSimulationAsync(Request.WithBody(new { product = "inss_payroll", requested_amount = 1000000, term = 12, monthly_rate = "0.0180", disbursement_date = "2026-03-02", first_due_date = "2026-04-02", customer_id = customerId })));
            Assert.AreEqual(12, simulation["schedule"].Count());
            var query = Run(api.CreateMarginQueryAsync(Request.WithBody(new { customer_id = customerId })));
            var proposal = Run(api.CreateProposalAsync(Request.WithBody(new { customer_id = customerId, simulation_id = simulation.Value<string>("id"), margin_query_id = query.Value<string>("id") })));
            var proposalId = proposal.Value<string>("id");
            Assert.AreEqual("pending_review", Run(api.SubmitProposalAsync(proposalId)).Value<string>("status"));
            Assert.AreEqual("approved", Run(api.ApproveProposalAsync(proposalId)).Value<string>("status"));
            Assert.AreEqual("signed", Run(api.SignProposalAsync(proposalId)).Value<string>("status"));
            Assert.AreEqual("endorsed", Run(api.CreateEndorsementAsync(Request.WithBody(new { proposal_id = proposalId }))).Value<string>("status"));
            var contract = Run(api.IssueContractAsync(Request.WithBody(new { proposal_id = proposalId })));
            Assert.AreEqual("active", contract.Value<string>("status"));
            var installments = Run(api.ListContractInstallmentsAsync(contract.Value<string>("id"), new Request().WithQuery("limit", 100)));
            Assert.AreEqual(12, installments["data"].Count());
            var charge = Run(api.CreateChargeAsync(Request.WithBody(new { contract_id = contract.Value<string>("id"), method = "boleto" })));
            Assert.AreEqual("pending", charge.Value<string>("status"));
            Assert.AreEqual(47, charge["boleto"].Value<string>("digitable_line").Count(char.IsDigit));
        }

        [Test]
        public void OAuthClientCredentials()
        {
            var api = new CreditPlatformClient(new CreditPlatformOptions { BaseUrl = Base, TenantId = Tenant, ClientId = Environment.GetEnvironmentVariable("CREDIT_PLATFORM_TEST_CLIENT_ID"), ClientSecret = Environment.GetEnvironmentVariable("CREDIT_PLATFORM_TEST_CLIENT_SECRET") });
            for (var i = 0; i < 3; i++) Assert.AreEqual("ok", Run(api.GetHealthAsync()).Value<string>("status"));
            var denied = Assert.Throws<ApiException>(() => Run(api.CreateCustomerAsync(Request.WithBody(new { document = Cpf(), name = "No write scope" }))));
            Assert.AreEqual(403, denied.Status);
            Assert.AreEqual("insufficient_permissions", denied.Code);
        }

        [Test]
        public void RetriesA429AfterRetryAfter()
        {
            using (var proxy = new Proxy(n => n == 1 ? "429" : "pass"))
            {
                var watch = Stopwatch.StartNew();
                Assert.AreEqual("ok", Run(Client(proxy.Url).GetHealthAsync()).Value<string>("status"));
                Assert.GreaterOrEqual(watch.ElapsedMilliseconds, 1000);
                CollectionAssert.AreEqual(new[] { "/v1/health", "/v1/health" }, proxy.Seen.Select(s => s[0]).ToArray());
            }
        }

        [Test]
        public void RetriesARetryable409ConflictAfterRetryAfterUnderTheSameRequestId()
        {
            using (var proxy = new Proxy(n => n == 1 ? "409-retryable" : "pass"))
            {
                var document = Cpf();
                var watch = Stopwatch.StartNew();
                var made = Run(Client(proxy.Url).CreateCustomerAsync(Request.WithBody(new { document, name = "Lost A Race" })));
                Assert.GreaterOrEqual(watch.ElapsedMilliseconds, 1000);
                var seen = proxy.Seen.ToArray();
                Assert.AreEqual(2, seen.Length);
                Assert.IsNotEmpty(seen[0][1]);
                Assert.AreEqual(seen[0][1], seen[1][1]);
                var found = Run(Client().ListCustomersAsync(new Request().WithQuery("document", document)))["data"];
                CollectionAssert.AreEqual(new[] { made.Value<string>("id") }, found.Select(c => c.Value<string>("id")).ToArray());
            }
            using (var proxy = new Proxy(n => "409"))
            {
                var e = Assert.Throws<ApiException>(() => Run(Client(proxy.Url).CreateCustomerAsync(Request.WithBody(new { document = Cpf(), name = "Conflict Stays" }))));
                Assert.AreEqual(409, e.Status);
                Assert.AreEqual("conflict", e.Code);
                Assert.IsFalse(e.Retryable);
                Assert.AreEqual(1, proxy.Seen.Count);
                Assert.AreEqual(proxy.Seen.ToArray()[0][1], e.RequestId);
            }
            // Once the retries are spent, the exception says the same request may be sent again (with its RequestId).
            using (var proxy = new Proxy(n => "409-retryable"))
            {
                var api = new CreditPlatformClient(new CreditPlatformOptions { BaseUrl = proxy.Url, TenantId = Tenant, ApiKey = Key, MaxRetries = 0 });
                var e = Assert.Throws<ApiException>(() => Run(api.CreateCustomerAsync(Request.WithBody(new { document = Cpf(), name = "Still Racing" }))));
                Assert.AreEqual(409, e.Status);
                Assert.IsTrue(e.Retryable);
                Assert.AreEqual(TimeSpan.FromSeconds(1), e.RetryAfter);
                Assert.AreEqual(1, proxy.Seen.Count);
                Assert.AreEqual(proxy.Seen.ToArray()[0][1], e.RequestId);
            }
        }

        [Test]
        public void RetriesAPostAfterADroppedConnectionCreatingOneObject()
        {
            using (var proxy = new Proxy(n => n == 1 ? "drop" : "pass"))
            {
                var document = Cpf();
                var made = Run(Client(proxy.Url).CreateCustomerAsync(Request.WithBody(new { document, name = "Dropped Once" })));
                var seen = proxy.Seen.ToArray();
                Assert.AreEqual(2, seen.Length);
                Assert.AreEqual(seen[0][1], seen[1][1]);
                var found = Run(Client().ListCustomersAsync(new Request().WithQuery("document", document)))["data"];
                CollectionAssert.AreEqual(new[] { made.Value<string>("id") }, found.Select(c => c.Value<string>("id")).ToArray());
            }
        }

        /// <summary>A string field of an answer, read from the raw JSON text (not through Json.NET).</summary>
        static string RawField(string path, string field)
        {
            using (var http = new HttpClient())
            using (var request = new HttpRequestMessage(HttpMethod.Get, Base + path))
            {
                request.Headers.Add("authorization", "Bearer " + Key);
                request.Headers.Add("x-tenant-id", Tenant);
                using (var answer = http.SendAsync(request).GetAwaiter().GetResult())
                {
                    var text = answer.Content.ReadAsStringAsync().GetAwaiter().GetResult();
                    var match = Regex.Match(text, "\"" + field + "\"\\s*:\\s*\"([^\"]*)\"");
                    Assert.IsTrue(match.Success, text);
                    return match.Groups[1].Value;
                }
            }
        }

        [Test]
        public void ResendingAnUnknownOutcomeWithTheErrorsRequestIdCreatesOneObject()
        {
            var document = Cpf();
            CreditPlatformConnectionException lost;
            using (var proxy = new Proxy(n => "drop"))
            {
                var api = new CreditPlatformClient(new CreditPlatformOptions { BaseUrl = proxy.Url, TenantId = Tenant, ApiKey = Key, RetryBaseDelay = TimeSpan.FromMilliseconds(50), MaxRetries = 1 });
                lost = Assert.Throws<CreditPlatformConnectionException>(() => Run(api.CreateCustomerAsync(Request.WithBody(new { document, name = "Unknown Outcome" }))));
                var seen = proxy.Seen.ToArray();
                Assert.AreEqual(2, seen.Length);
                Assert.AreEqual(seen[0][1], lost.RequestId);
                Assert.AreEqual(seen[1][1], lost.RequestId);
            }
            // The server created it; sent again under the error's id, the call answers that customer instead of a second one.
            var made = Run(Client().CreateCustomerAsync(new Request { Body = new { document, name = "Unknown Outcome" }, RequestId = lost.RequestId }));
            var found = Run(Client().ListCustomersAsync(new Request().WithQuery("document", document)))["data"];
            CollectionAssert.AreEqual(new[] { made.Value<string>("id") }, found.Select(c => c.Value<string>("id")).ToArray());
        }

        [Test]
        public void ThrowsARetryAfterAboveTheCapAtOnce()
        {
            using (var proxy = new Proxy(n => "429:120"))
            {
                var id = "cs-cap-" + Cpf();
                var watch = Stopwatch.StartNew();
                var e = Assert.Throws<ApiException>(() => Run(Client(proxy.Url).CreateCustomerAsync(new Request { Body = new { document = Cpf(), name = "Come Back Tomorrow" }, RequestId = id })));
                Assert.Less(watch.ElapsedMilliseconds, 5000);
                Assert.AreEqual(429, e.Status);
                Assert.AreEqual(TimeSpan.FromSeconds(120), e.RetryAfter);
                Assert.AreEqual("120", e.Headers["retry-after"][0]);
                StringAssert.StartsWith("application/problem+json", e.Headers["Content-Type"][0]);
                Assert.AreEqual("2030-01-01T00:00:00.000Z", (string)e.Problem["retry_at"]); // a problem's strings as sent too
                Assert.AreEqual(1, proxy.Seen.Count);
                Assert.AreEqual(id, e.RequestId);
                Assert.AreEqual(id, proxy.Seen.ToArray()[0][1]);
            }
            using (var proxy = new Proxy(n => "429:1"))
            {
                var api = new CreditPlatformClient(new CreditPlatformOptions { BaseUrl = proxy.Url, TenantId = Tenant, ApiKey = Key, MaxRetryAfter = TimeSpan.FromMilliseconds(500) });
                var e = Assert.Throws<ApiException>(() => Run(api.GetHealthAsync()));
                Assert.AreEqual(TimeSpan.FromSeconds(1), e.RetryAfter);
                Assert.AreEqual(1, proxy.Seen.Count);
            }
        }

        [Test]
        public void AcceptsOnlySandboxOrProductionAsTheEnvironment()
        {
            foreach (var wrong in new[] { "Production", "prod", "SANDBOX", "" })
            {
                Assert.Throws<ArgumentException>(() => new CreditPlatformClient(new CreditPlatformOptions { Environment = wrong, BaseUrls = new Dictionary<string, string> { [wrong] = Base }, TenantId = Tenant, ApiKey = "sk_live_x" }));
            }
            var sandbox = new CreditPlatformClient(new CreditPlatformOptions { Environment = "sandbox", BaseUrls = new Dictionary<string, string> { ["sandbox"] = Base }, TenantId = Tenant, ApiKey = Key });
            Assert.AreEqual("ok", Run(sandbox.GetHealthAsync()).Value<string>("status"));
            Assert.Throws<CreditPlatformException>(() => new CreditPlatformClient(new CreditPlatformOptions { Environment = "production", BaseUrls = new Dictionary<string, string> { ["production"] = Base }, TenantId = Tenant, ApiKey = Key }));
        }

        static Dictionary<string, string> Signed(string body, string secret, string id, long timestamp)
        {
            string signature;
            using (var hmac = new HMACSHA256(Convert.FromBase64String(secret.Substring(6)))) signature = Convert.ToBase64String(hmac.ComputeHash(Encoding.UTF8.GetBytes(id + "." + timestamp + "." + body)));
            return new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase) { ["webhook-id"] = id, ["webhook-timestamp"] = timestamp.ToString(), ["webhook-signature"] = "v1," + signature };
        }

        [Test]
        public void TheWebhookVerifierThrowsItsOwnErrorOnHostileInput()
        {
            var secret = "whsec_" + Convert.ToBase64String(Enumerable.Range(0, 32).Select(i => (byte)i).ToArray());
            var body = "{\"id\":\"evt_local\",\"type\":\"customer.created\",\"created_at\":\"2026-03-02T10:00:00.000Z\",\"data\":{\"at\":\"2026-03-02T10:00:00Z\"}}";
            var headers = Signed(body, secret, "msg_local", DateTimeOffset.UtcNow.ToUnixTimeSeconds());
            var evt = Webhooks.Verify(body, headers, secret);
            Assert.AreEqual("2026-03-02T10:00:00.000Z", (string)evt["created_at"]);
            Assert.AreEqual("2026-03-02T10:00:00Z", (string)evt["data"]["at"]);
            var good = headers["webhook-signature"];
            foreach (var signature in new[] { "v1,çà-not-ascii", good + "é", "v1,ñ " + good.Substring(0, good.Length - 2) + "ü=" })
            {
                var hostile = new Dictionary<string, string>(headers, StringComparer.OrdinalIgnoreCase) { ["webhook-signature"] = signature };
                Assert.Throws<Webhooks.VerificationException>(() => Webhooks.Verify(body, hostile, secret));
            }
            var beside = new Dictionary<string, string>(headers, StringComparer.OrdinalIgnoreCase) { ["webhook-signature"] = "v1,ñ " + good };
            Assert.AreEqual("evt_local", Webhooks.Verify(body, beside, secret).Value<string>("id"));
            foreach (var malformed in new[] { "whsec_a", "whsec_ñ***", null })
            {
                Assert.Throws<Webhooks.VerificationException>(() => Webhooks.Verify(body, headers, malformed));
                Assert.Throws<Webhooks.VerificationException>(() => Webhooks.Verify(body, headers, malformed, secret));
            }
            Assert.Throws<Webhooks.VerificationException>(() => Webhooks.Verify(body, null, secret));
            Assert.Throws<Webhooks.VerificationException>(() => Webhooks.Verify("not json", Signed("not json", secret, "msg_local", DateTimeOffset.UtcNow.ToUnixTimeSeconds()), secret));
        }

        static int HealthWith(string accessToken)
        {
            using (var http = new HttpClient())
            using (var request = new HttpRequestMessage(HttpMethod.Get, Base + "/v1/health"))
            {
                request.Headers.Add("authorization", "Bearer " + accessToken);
                request.Headers.Add("x-tenant-id", Tenant);
                using (var answer = http.SendAsync(request).GetAwaiter().GetResult()) return (int)answer.StatusCode;
            }
        }

        [Test]
        public void NeverResendsTheTokenRequestAfterADroppedConnection()
        {
            var id = Environment.GetEnvironmentVariable("CREDIT_PLATFORM_TEST_CLIENT_ID");
            var secret = Environment.GetEnvironmentVariable("CREDIT_PLATFORM_TEST_CLIENT_SECRET");
            var first = Run(Client().CreateTokenAsync(Request.WithBody(new Dictionary<string, string> { ["grant_type"] = "client_credentials", ["client_id"] = id, ["client_secret"] = secret })));
            var refresh = new Dictionary<string, string> { ["grant_type"] = "refresh_token", ["refresh_token"] = first.Value<string>("refresh_token"), ["client_id"] = id, ["client_secret"] = secret };
            using (var proxy = new Proxy(n => n == 1 ? "drop" : "pass"))
            {
                var lost = Assert.Throws<CreditPlatformConnectionException>(() => Run(Client(proxy.Url).CreateTokenAsync(Request.WithBody(refresh))));
                Assert.AreEqual(1, proxy.Seen.Count);
                Assert.AreEqual(proxy.Seen.ToArray()[0][1], lost.RequestId);
            }
            // The server refreshed once; a resend would have been a reuse, revoking the grant and its access tokens.
            Assert.AreEqual(200, HealthWith(first.Value<string>("access_token")));
            var reused = Assert.Throws<ApiException>(() => Run(Client().CreateTokenAsync(Request.WithBody(refresh))));
            Assert.AreEqual(400, reused.Status);
            Assert.AreEqual("invalid_grant", reused.Code);
            Assert.AreEqual(401, HealthWith(first.Value<string>("access_token")));
        }

        [Test]
        public void Paginates()
        {
            var api = Client();
            for (var i = 0; i < 3; i++) Run(api.CreateCustomerAsync(Request.WithBody(new { document = Cpf(), name = "Page " + i })));
            var direct = Run(api.ListCustomersAsync(new Request().WithQuery("limit", 100)))["data"].Select(c => c.Value<string>("id")).ToList();
            Assert.GreaterOrEqual(direct.Count, 3);
            CollectionAssert.AreEqual(direct, api.Paginate("listCustomers", new Request().WithQuery("limit", 2)).Select(c => c.Value<string>("id")).ToList());
            // A list under a path parameter pages too: the id reaches the server (an unknown contract: its 404, not a missing parameter).
            var unknown = Assert.Throws<ApiException>(() => api.Paginate("listContractInstallments", new Dictionary<string, string> { ["id"] = "ctr_01JD0000000000000000000000" }).ToList());
            Assert.AreEqual(404, unknown.Status);
        }

        [Test]
        public void SurfacesProblems()
        {
            var api = Client();
            var missing = Assert.Throws<ApiException>(() => Run(api.GetCustomerAsync("cus_01JD0000000000000000000000")));
            Assert.AreEqual(404, missing.Status);
            Assert.AreEqual("not_found", missing.Code);
            Assert.AreEqual("urn:credit-platform:problem:not_found", missing.Type);
            StringAssert.StartsWith("application/problem+json", missing.Headers["content-type"][0]);
            Assert.IsNotNull(missing.RequestId);
            Assert.AreEqual(missing.Headers["x-request-id"][0], missing.RequestId);
            var id = "cs-invalid-" + Cpf();
            var invalid = Assert.Throws<ApiException>(() => Run(api.CreateCustomerAsync(new Request { Body = new { document = "123", name = "" }, RequestId = id })));
            Assert.AreEqual(400, invalid.Status);
            Assert.AreEqual(id, invalid.RequestId);
            Assert.AreEqual(id, invalid.Headers["X-Request-Id"][0]);
            Assert.AreEqual("validation_error", invalid.Code);
            Assert.IsTrue(invalid.Errors.Any(e => e.Param == "name"));
            var unauthorized = Assert.Throws<ApiException>(() => Run(new CreditPlatformClient(new CreditPlatformOptions { BaseUrl = Base, TenantId = Tenant, ApiKey = "sk_test_wrong" }).GetHealthAsync()));
            Assert.AreEqual(401, unauthorized.Status);
        }

        [Test]
        public void VerifiesAWebhookThePlatformSigned()
        {
            var received = new ConcurrentQueue<Tuple<string, Dictionary<string, string>>>();
            var prefix = "http://127.0.0.1:" + FreePort() + "/";
            var receiver = new HttpListener();
            receiver.Prefixes.Add(prefix);
            receiver.Start();
            Task.Run(async () =>
            {
                while (receiver.IsListening)
                {
                    HttpListenerContext context;
                    try { context = await receiver.GetContextAsync(); } catch (Exception) { return; }
                    var body = new StreamReader(context.Request.InputStream, Encoding.UTF8).ReadToEnd();
                    var headers = context.Request.Headers.AllKeys.ToDictionary(k => k, k => context.Request.Headers[k], StringComparer.OrdinalIgnoreCase);
                    received.Enqueue(Tuple.Create(body, headers));
                    context.Response.StatusCode = 200;
                    context.Response.Close();
                }
            });
            try
            {
                var api = Client();
                var endpoint = Run(api.CreateWebhookEndpointAsync(Request.WithBody(new { url = prefix + "hook", event_types = new[] { "customer.created" } })));
                Run(api.TestWebhookEndpointAsync(endpoint.Value<string>("id")));
                var deadline = DateTime.UtcNow.AddSeconds(30);
                while (received.IsEmpty && DateTime.UtcNow < deadline) Thread.Sleep(100); // the harness's worker delivers it
                Tuple<string, Dictionary<string, string>> first;
                Assert.IsTrue(received.TryPeek(out first));
                var secret = endpoint.Value<string>("secret");
                var evt = Webhooks.Verify(first.Item1, first.Item2, secret);
                Assert.AreEqual("webhook_endpoint.test", evt.Value<string>("type"));
                var sentAt = Regex.Match(first.Item1, "\"created_at\"\\s*:\\s*\"([^\"]*)\"").Groups[1].Value;
                StringAssert.EndsWith("Z", sentAt);
                Assert.AreEqual(sentAt, (string)evt["created_at"]); // the exact string signed, not a DateTime
                Assert.AreEqual(endpoint.Value<string>("id"), evt["data"].Value<string>("webhook_endpoint_id"));
                Assert.Throws<Webhooks.VerificationException>(() => Webhooks.Verify(first.Item1.Replace("test", "tesT"), first.Item2, secret));
                var other = "whsec_" + new string('A', 43) + "=";
                Assert.AreEqual(evt.Value<string>("id"), Webhooks.Verify(first.Item1, first.Item2, other, secret).Value<string>("id"));
                Assert.Throws<Webhooks.VerificationException>(() => Webhooks.Verify(first.Item1, first.Item2, DateTimeOffset.UtcNow.AddHours(1), secret));
            }
            finally
            {
                receiver.Stop();
            }
        }
    }
}
