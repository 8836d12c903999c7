ALTER TABLE "countries" ADD COLUMN "schengen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The Schengen area as of 2025 (modules/catalog/schengen.ts); from now on the console's «Geografía» keeps it.
UPDATE "countries" SET "schengen" = true WHERE "iso_code" IN ('AT', 'BE', 'BG', 'CH', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IS', 'IT', 'LI', 'LT', 'LU', 'LV', 'MT', 'NL', 'NO', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK');
