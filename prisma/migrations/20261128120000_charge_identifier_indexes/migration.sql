-- A provider notification names its charge by the Pix txid or the boleto nosso numero, inside the JSON columns:
-- without these indexes every notification read every charge of the environment (and unpacked its JSON, the Pix
-- one holding the QR image), a sequential scan that grows with the book and invites provider timeouts and retries.
CREATE INDEX "charges_environment_pix_txid_idx" ON "charges" ("environment", (("pix" ->> 'txid'))) WHERE "pix" IS NOT NULL;
CREATE INDEX "charges_environment_boleto_our_number_idx" ON "charges" ("environment", (("boleto" ->> 'our_number'))) WHERE "boleto" IS NOT NULL;
