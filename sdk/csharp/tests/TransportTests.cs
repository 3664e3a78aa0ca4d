using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using CreditPlatform.Sdk;
using Newtonsoft.Json.Linq;
using NUnit.Framework;

namespace CreditPlatform.Sdk.Tests
{
    /// <summary>The C# SDK's request path against scripted local servers (no API, no database): what a real server cannot be
    /// made to do on demand — a token request that fails on the renewal a retry needs, 401s arriving one after the other on
    /// concurrent calls, a 201 cut mid-body on a connection that ends it, a DELETE whose answer is lost — and per-call
    /// headers.</summary>
    [TestFixture]
    public class TransportTests
    {
        sealed class Req
        {
            public int N;
            public string Method;
            public string Path;
            public Dictionary<string, string> Headers;
        }

        /// <summary>A raw HTTP/1.1 server: one request per connection, recorded in Seen; route says what to do with it.</summary>
        sealed class Scripted : IDisposable
        {
            readonly TcpListener listener = new TcpListener(IPAddress.Loopback, 0);
            readonly List<Req> seen = new List<Req>();
            public readonly ManualResetEventSlim Stop = new ManualResetEventSlim();
            public readonly string Url;

            public Scripted(Func<Req, List<Req>, Action<Socket>> route)
            {
                listener.Start();
                Url = "http://127.0.0.1:" + ((IPEndPoint)listener.LocalEndpoint).Port;
                new Thread(() =>
                {
                    while (true)
                    {
                        Socket socket;
                        try { socket = listener.AcceptSocket(); } catch (Exception) { return; }
                        new Thread(() => Handle(socket, route)) { IsBackground = true }.Start();
                    }
                }) { IsBackground = true }.Start();
            }

            public List<Req> Seen { get { lock (seen) return seen.ToList(); } }
            public List<Req> Of(string path) => Seen.Where(r => r.Path.StartsWith(path, StringComparison.Ordinal)).ToList();

            void Handle(Socket socket, Func<Req, List<Req>, Action<Socket>> route)
            {
                try
                {
                    using (socket)
                    {
                        var head = new StringBuilder();
                        var one = new byte[1];
                        while (!head.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
                        {
                            if (socket.Receive(one) == 0) return;
                            head.Append((char)one[0]);
                        }
                        var lines = head.ToString().Split(new[] { "\r\n" }, StringSplitOptions.RemoveEmptyEntries);
                        var first = lines[0].Split(' ');
                        var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
                        foreach (var line in lines.Skip(1))
                        {
                            var colon = line.IndexOf(':');
                            if (colon > 0) headers[line.Substring(0, colon).Trim()] = line.Substring(colon + 1).Trim();
                        }
                        string length;
                        var left = headers.TryGetValue("Content-Length", out length) ? int.Parse(length) : 0;
                        var buffer = new byte[4096];
                        while (left > 0)
                        {
                            var n = socket.Receive(buffer, Math.Min(left, buffer.Length), SocketFlags.None);
                            if (n == 0) return;
                            left -= n;
                        }
                        Req req;
                        List<Req> snapshot;
                        lock (seen)
                        {
                            req = new Req { N = seen.Count + 1, Method = first[0], Path = first[1], Headers = headers };
                            seen.Add(req);
                            snapshot = seen.ToList();
                        }
                        route(req, snapshot)(socket);
                    }
                }
                catch (Exception)
                {
                    // the client went away
                }
            }

            public void Dispose()
            {
                Stop.Set();
                listener.Stop();
            }
        }

        static Action<Socket> Answer(int status, string json, IDictionary<string, string> headers = null, int delayMs = 0)
        {
            return socket =>
            {
                if (delayMs > 0) Thread.Sleep(delayMs);
                var payload = Encoding.UTF8.GetBytes(json ?? "");
                var head = new StringBuilder("HTTP/1.1 " + status + " X\r\n");
                head.Append("content-type: ").Append(status >= 400 ? "application/problem+json" : "application/json").Append("\r\n");
                head.Append("content-length: ").Append(payload.Length).Append("\r\nconnection: close\r\n");
                if (headers != null) foreach (var h in headers) head.Append(h.Key).Append(": ").Append(h.Value).Append("\r\n");
                head.Append("\r\n");
                socket.Send(Encoding.ASCII.GetBytes(head.ToString()).Concat(payload).ToArray());
            };
        }

        static readonly Action<Socket> Drop = socket => { }; // the connection closes without an answer (the server may have acted)

        static Action<Socket> Raw(string data) => socket => socket.Send(Encoding.UTF8.GetBytes(data));

        static string Problem(int status, string code, string extra = "") =>
            "{\"type\":\"urn:credit-platform:problem:" + code + "\",\"title\":\"" + code + "\",\"status\":" + status + ",\"code\":\"" + code + "\"" + extra + "}";

        static readonly Action<Socket> RefusedToken = Answer(401, Problem(401, "invalid_client", ",\"request_id\":\"token-request-id\""), new Dictionary<string, string> { ["x-request-id"] = "token-request-id" });

        static CreditPlatformClient OAuth(string url, TimeSpan? timeout = null, int maxRetries = 3) =>
            new CreditPlatformClient(new CreditPlatformOptions { BaseUrl = url, TenantId = "ten_1", ClientId = "cli_1", ClientSecret = "secret-1", RetryBaseDelay = TimeSpan.FromMilliseconds(10), Timeout = timeout ?? TimeSpan.FromSeconds(10), MaxRetries = maxRetries });

        static CreditPlatformClient Keyed(string url, int maxRetries = 3) =>
            new CreditPlatformClient(new CreditPlatformOptions { BaseUrl = url, TenantId = "ten_1", ApiKey = "sk_test_key", RetryBaseDelay = TimeSpan.FromMilliseconds(10), MaxRetries = maxRetries });

        static int Tokens(List<Req> seen) => seen.Count(r => r.Path == "/v1/auth/token");

        static T Run<T>(Task<T> task) => task.GetAwaiter().GetResult();

        static readonly object Customer = new { document = "52998224725", name = "Maria" };

        /// <summary>Tokens that last a minute are renewed at once: the retry after an attempt whose outcome is unknown needs a
        /// new one, and the token request is refused — the call's exception is that unknown outcome, with its own request id.</summary>
        [TestCase(false)]
        [TestCase(true)]
        public void AFailedTokenRenewalAfterAnUnknownOutcomeIsThatOutcomeWithTheCallsRequestId(bool timedOut)
        {
            Scripted server = null;
            Action<Socket> fault = timedOut ? (socket => server.Stop.Wait(30000)) : Drop;
            using (server = new Scripted((req, seen) => req.Path != "/v1/auth/token" ? fault
                : Tokens(seen) == 1 ? Answer(200, "{\"access_token\":\"t1\",\"expires_in\":60}") : RefusedToken))
            {
                var api = OAuth(server.Url, TimeSpan.FromMilliseconds(500));
                var call = new Request { Body = Customer, RequestId = "call-id-1" };
                var e = Assert.Catch<CreditPlatformException>(() => Run(api.CreateCustomerAsync(call)));
                Assert.IsInstanceOf(timedOut ? typeof(CreditPlatformTimeoutException) : typeof(CreditPlatformConnectionException), e);
                Assert.AreEqual("call-id-1", e.RequestId);
                Assert.IsInstanceOf<ApiException>(e.InnerException);
                Assert.AreEqual("token-request-id", ((ApiException)e.InnerException).RequestId);
                CollectionAssert.AreEqual(new[] { "call-id-1" }, server.Of("/v1/customers").Select(r => r.Headers["X-Request-Id"]).ToArray());
            }
        }

        [Test]
        public void ATokenRenewalRefusedAfterA401CarriesTheCallsRequestId()
        {
            using (var server = new Scripted((req, seen) => req.Path == "/v1/auth/token"
                ? (Tokens(seen) == 1 ? Answer(200, "{\"access_token\":\"t1\",\"expires_in\":3600}") : RefusedToken)
                : Answer(401, Problem(401, "unauthorized"))))
            {
                var api = OAuth(server.Url);
                var e = Assert.Throws<ApiException>(() => Run(api.CreateCustomerAsync(new Request { Body = Customer, RequestId = "call-id-2" })));
                Assert.AreEqual(401, e.Status);
                Assert.AreEqual("invalid_client", e.Code);
                Assert.AreEqual("call-id-2", e.RequestId);
                Assert.AreEqual("token-request-id", ((ApiException)e.InnerException).RequestId);
                var get = Assert.Throws<ApiException>(() => Run(api.GetHealthAsync()));
                Assert.IsNull(get.RequestId); // a GET sends no id: none, not the token answer's
            }
        }

        [Test]
        public void Concurrent401sOneAfterTheOtherRenewTheTokenOnce()
        {
            var refusals = 0;
            // No 401 is answered before all five calls have sent the first token (a call started late on a busy machine
            // would otherwise send the renewed one and never see a 401); then they are answered 150 ms apart.
            var allSent = new CountdownEvent(5);
            using (var server = new Scripted((req, seen) =>
            {
                if (req.Path == "/v1/auth/token") return Answer(200, "{\"access_token\":\"t" + Tokens(seen) + "\",\"expires_in\":3600}");
                if (req.Headers.ContainsKey("Authorization") && req.Headers["Authorization"] == "Bearer t1")
                {
                    var refuse = Answer(401, Problem(401, "unauthorized"), null, 150 * (Interlocked.Increment(ref refusals) - 1));
                    return socket =>
                    {
                        allSent.Signal();
                        allSent.Wait(15000);
                        refuse(socket);
                    };
                }
                return Answer(200, "{\"status\":\"ok\"}");
            }))
            {
                var api = OAuth(server.Url);
                var answers = Run(Task.WhenAll(Enumerable.Range(0, 5).Select(_ => Task.Run(() => api.GetHealthAsync()))));
                CollectionAssert.AreEqual(Enumerable.Repeat("ok", 5).ToArray(), answers.Select(a => a.Value<string>("status")).ToArray());
                Assert.AreEqual(5, refusals);
                Assert.AreEqual(2, Tokens(server.Seen));
            }
        }

        [Test]
        public void A401TokenRenewalIsNotARetry()
        {
            using (var server = new Scripted((req, seen) =>
            {
                if (req.Path == "/v1/auth/token") return Answer(200, "{\"access_token\":\"t" + Tokens(seen) + "\",\"expires_in\":3600}");
                var n = seen.Count(r => r.Path == "/v1/health");
                return n == 1 ? Answer(401, Problem(401, "unauthorized")) : n == 2 ? Answer(503, Problem(503, "unavailable")) : Answer(200, "{\"status\":\"ok\"}");
            }))
            {
                Assert.AreEqual("ok", Run(OAuth(server.Url, null, 1).GetHealthAsync()).Value<string>("status"));
                Assert.AreEqual(3, server.Of("/v1/health").Count);
            }
        }

        static readonly Action<Socket> Cut = Raw("HTTP/1.1 201 Created\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{\"id\": \"cus_01");

        [Test]
        public void A2xxWhoseBodyIsNotJsonIsAConnectionExceptionRetriedUnderTheSameRequestId()
        {
            using (var server = new Scripted((req, seen) => req.N == 1 ? Cut : Answer(201, "{\"id\":\"cus_1\",\"object\":\"customer\"}")))
            {
                Assert.AreEqual("cus_1", Run(Keyed(server.Url).CreateCustomerAsync(Request.WithBody(Customer))).Value<string>("id"));
                var seen = server.Seen;
                Assert.AreEqual(2, seen.Count);
                Assert.AreEqual(seen[0].Headers["X-Request-Id"], seen[1].Headers["X-Request-Id"]);
            }
            using (var always = new Scripted((req, seen) => Cut))
            {
                var e = Assert.Throws<CreditPlatformConnectionException>(() => Run(Keyed(always.Url, 0).CreateCustomerAsync(new Request { Body = Customer, RequestId = "cut-1" })));
                Assert.AreEqual("cut-1", e.RequestId);
            }
        }

        [Test]
        public void ADelete404AfterAnUnknownOutcomeIsItsSuccess()
        {
            using (var server = new Scripted((req, seen) => req.Path.EndsWith("/whe_1", StringComparison.Ordinal) && req.N == 1 ? Drop : Answer(404, Problem(404, "not_found"))))
            {
                var api = Keyed(server.Url);
                Assert.IsTrue(JToken.DeepEquals(JObject.Parse("{\"id\":\"whe_1\",\"object\":\"webhook_endpoint\",\"deleted\":true}"), Run(api.DeleteWebhookEndpointAsync("whe_1"))));
                CollectionAssert.AreEqual(new[] { "DELETE", "DELETE" }, server.Seen.Select(r => r.Method).ToArray());
                var first = Assert.Throws<ApiException>(() => Run(api.DeleteWebhookEndpointAsync("whe_2")));
                Assert.AreEqual(404, first.Status);
                Assert.AreEqual(3, server.Seen.Count);
            }
        }

        /// <summary>The documented 200 answer of deleteWebhookEndpoint (sdk/openapi.json), its $ref resolved.</summary>
        static JObject DeletedSchema()
        {
            var file = Environment.GetEnvironmentVariable("CREDIT_PLATFORM_TEST_OPENAPI") ?? System.IO.Path.Combine("sdk", "openapi.json");
            var document = JObject.Parse(System.IO.File.ReadAllText(file));
            var schema = (JObject)document["paths"]["/v1/webhook-endpoints/{id}"]["delete"]["responses"]["200"]["content"]["application/json"]["schema"];
            while (schema["$ref"] != null) schema = (JObject)document["components"]["schemas"][((string)schema["$ref"]).Split('/').Last()];
            return schema;
        }

        [Test]
        public void ADelete404AfterAnAttemptThatTimedOutAwaitingItsAnswerIsItsDocumentedSuccess()
        {
            Scripted server = null;
            using (server = new Scripted((req, seen) => req.N == 1 ? (socket => server.Stop.Wait(30000)) : Answer(404, Problem(404, "not_found"))))
            {
                var api = new CreditPlatformClient(new CreditPlatformOptions { BaseUrl = server.Url, TenantId = "ten_1", ApiKey = "sk_test_key", RetryBaseDelay = TimeSpan.FromMilliseconds(10), Timeout = TimeSpan.FromMilliseconds(500) });
                var deleted = (JObject)Run(api.DeleteWebhookEndpointAsync("whe_3"));
                Assert.IsTrue(JToken.DeepEquals(JObject.Parse("{\"id\":\"whe_3\",\"object\":\"webhook_endpoint\",\"deleted\":true}"), deleted), deleted.ToString());
                Assert.AreEqual(2, server.Seen.Count);
                var schema = DeletedSchema();
                var fields = deleted.Properties().Select(p => p.Name).OrderBy(n => n, StringComparer.Ordinal).ToArray();
                CollectionAssert.AreEqual(((JObject)schema["properties"]).Properties().Select(p => p.Name).OrderBy(n => n, StringComparer.Ordinal).ToArray(), fields);
                CollectionAssert.AreEqual(schema["required"].Select(r => (string)r).OrderBy(n => n, StringComparer.Ordinal).ToArray(), fields);
                foreach (var property in ((JObject)schema["properties"]).Properties().Where(p => p.Value["enum"] != null))
                    Assert.IsTrue(property.Value["enum"].Any(v => JToken.DeepEquals(v, deleted[property.Name])), property.Name);
            }
        }

        /// <summary>Sends the first request of the client elsewhere — a port held but not listening (refused), or a name that
        /// does not resolve — and the ones after it to the address asked for: a real failure to connect, then the server.</summary>
        sealed class UnreachableFirst : DelegatingHandler
        {
            readonly string first;
            public int Sent;
            public UnreachableFirst(string first) : base(new HttpClientHandler { AllowAutoRedirect = false }) { this.first = first; }

            protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancel)
            {
                if (Interlocked.Increment(ref Sent) == 1) request.RequestUri = new Uri(first + request.RequestUri.PathAndQuery);
                return base.SendAsync(request, cancel);
            }
        }

        [TestCase("refused")]
        [TestCase("unresolved")]
        public void ADelete404AfterAnAttemptThatNeverReachedTheServerThrowsTheApiException(string kind)
        {
            using (var held = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
            using (var server = new Scripted((req, seen) => Answer(404, Problem(404, "not_found"))))
            {
                held.Bind(new IPEndPoint(IPAddress.Loopback, 0)); // bound, never listening: connections to it are refused
                var first = kind == "refused" ? "http://127.0.0.1:" + ((IPEndPoint)held.LocalEndPoint).Port : "http://no-such-host.invalid";
                Func<int, UnreachableFirst, CreditPlatformClient> client = (maxRetries, handler) => new CreditPlatformClient(new CreditPlatformOptions
                    { BaseUrl = server.Url, TenantId = "ten_1", ApiKey = "sk_test_key", RetryBaseDelay = TimeSpan.FromMilliseconds(10), MaxRetries = maxRetries, Handler = handler });
                var retried = new UnreachableFirst(first);
                var e = Assert.Throws<ApiException>(() => Run(client(3, retried).DeleteWebhookEndpointAsync("whe_TYPO")));
                Assert.AreEqual(404, e.Status);
                Assert.AreEqual("not_found", e.Code);
                Assert.AreEqual(2, retried.Sent);
                CollectionAssert.AreEqual(new[] { "/v1/webhook-endpoints/whe_TYPO" }, server.Seen.Select(r => r.Path).ToArray());
                // Alone (no retry left), such an attempt is a connection exception saying the request was not sent.
                var alone = Assert.Throws<CreditPlatformConnectionException>(() => Run(client(0, new UnreachableFirst(first)).DeleteWebhookEndpointAsync("whe_TYPO")));
                StringAssert.Contains("not sent", alone.Message);
                Assert.AreEqual(1, server.Seen.Count);
            }
        }

        [Test]
        public void ACallSendsItsExtraHeadersAndRefusesThoseTheSdkSets()
        {
            using (var server = new Scripted((req, seen) => Answer(202, "{\"received\":true}")))
            {
                var api = Keyed(server.Url);
                Run(api.ReceiveProviderNotificationAsync("bank", Request.WithBody(new { @event = "x" }).WithHeader("X-Provider-Signature", "sig-1")));
                Assert.AreEqual("sig-1", server.Seen[0].Headers["X-Provider-Signature"]);
                foreach (var header in new[] { "Authorization", "X-Request-Id", "x-tenant-id", "Content-Type" })
                {
                    var e = Assert.Throws<CreditPlatformException>(() => Run(api.GetHealthAsync(new Request().WithHeader(header, "mine"))));
                    StringAssert.Contains("set by the SDK", e.Message);
                }
                Assert.AreEqual(1, server.Seen.Count);
            }
        }
    }
}
