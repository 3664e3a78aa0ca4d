using System;
using System.Collections.Generic;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using Newtonsoft.Json.Linq;

namespace CreditPlatform.Sdk
{
    /// <summary>Verifying what the platform POSTs to your endpoint (Standard Webhooks): HMAC-SHA256 over
    /// "{webhook-id}.{webhook-timestamp}.{raw body}" with your endpoint's whsec_ secret, and a timestamp within 5 minutes of
    /// your clock. During a secret rotation pass both secrets: either one verifies.</summary>
    public static class Webhooks
    {
        public static readonly TimeSpan Tolerance = TimeSpan.FromMinutes(5);

        public sealed class VerificationException : CreditPlatformException
        {
            public VerificationException(string message) : base(message) { }
            public VerificationException(string message, Exception inner) : base(message, inner) { }
        }

        /// <summary>The verified event {id, type, created_at, tenant_id, environment, data}, its strings as sent (created_at
        /// stays the ISO string). body is the raw request body. Every failure — a missing or hostile header, a malformed
        /// secret, a body that is not JSON — throws VerificationException (and nothing else).</summary>
        public static JObject Verify(string body, IDictionary<string, string> headers, params string[] secrets) => Verify(body, headers, DateTimeOffset.UtcNow, secrets);

        public static JObject Verify(string body, IDictionary<string, string> headers, DateTimeOffset now, params string[] secrets)
        {
            try
            {
                return VerifyOrThrow(body, headers, now, secrets);
            }
            catch (VerificationException)
            {
                throw;
            }
            catch (Exception e) // hostile input must not escape as FormatException, ArgumentNullException…
            {
                throw new VerificationException("Cannot verify the payload: " + e.GetType().Name, e);
            }
        }

        private static JObject VerifyOrThrow(string body, IDictionary<string, string> headers, DateTimeOffset now, string[] secrets)
        {
            var h = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
            foreach (var pair in headers) h[pair.Key] = pair.Value;
            string id, timestamp, signatures;
            if (!h.TryGetValue("webhook-id", out id) || !h.TryGetValue("webhook-timestamp", out timestamp) || !h.TryGetValue("webhook-signature", out signatures))
                throw new VerificationException("Missing webhook-id, webhook-timestamp or webhook-signature");
            long sentAt;
            if (!long.TryParse(timestamp.Trim(), out sentAt)) throw new VerificationException("Invalid webhook-timestamp");
            if (Math.Abs(now.ToUnixTimeSeconds() - sentAt) > Tolerance.TotalSeconds) throw new VerificationException("The timestamp is too far from now");
            var signed = Encoding.UTF8.GetBytes(id + "." + timestamp + "." + body);
            foreach (var secret in secrets)
            {
                byte[] key;
                try { key = Convert.FromBase64String(secret.StartsWith("whsec_", StringComparison.Ordinal) ? secret.Substring(6) : secret); }
                catch (FormatException e) { throw new VerificationException("A secret is not a whsec_… base64 key", e); }
                byte[] expected;
                using (var hmac = new HMACSHA256(key)) expected = hmac.ComputeHash(signed);
                foreach (var offered in signatures.Split(' ').Where(s => s.StartsWith("v1,", StringComparison.Ordinal)))
                {
                    byte[] candidate;
                    try { candidate = Convert.FromBase64String(offered.Substring(3)); } catch (FormatException) { continue; }
                    if (!FixedTimeEquals(expected, candidate)) continue;
                    var evt = JsonText.Parse(body) as JObject;
                    if (evt == null) throw new VerificationException("The body is not a JSON object");
                    return evt;
                }
            }
            throw new VerificationException("No matching signature found");
        }

        private static bool FixedTimeEquals(byte[] a, byte[] b)
        {
            if (a.Length != b.Length) return false;
            var diff = 0;
            for (var i = 0; i < a.Length; i++) diff |= a[i] ^ b[i];
            return diff == 0;
        }
    }
}
