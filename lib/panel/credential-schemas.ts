import { z } from "zod";
import { PermissionSchema } from "@/lib/auth/permissions";

// What the panel's create forms send.
export const CreateCredentialBody = z.strictObject({
  name: z.string().trim().min(1, "Give it a name").max(80),
  environment: z.enum(["sandbox", "production"]),
  permissions: z.array(PermissionSchema).min(1, "Choose at least one permission").max(40),
});
export type CreateCredentialBody = z.infer<typeof CreateCredentialBody>;
