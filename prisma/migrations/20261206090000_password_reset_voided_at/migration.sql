-- A reset link voided by a newer link or a password change (lib/auth/account-password.ts voidOpenResetLinks) says so
-- itself: the claim (lib/auth/password-reset.ts resetPassword) refuses a voided link whatever its own time. Moving
-- expires_at to the void's time was not enough: a reset whose time was taken before its slow hash, earlier than a
-- change that committed meanwhile, still passed `expires_at > now` and overwrote the password just chosen.
ALTER TABLE "password_resets" ADD COLUMN "voided_at" TIMESTAMPTZ(3);
