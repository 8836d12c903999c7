-- «Paid» belongs to the sale alone (docs/decisions/010-one-owner-of-paid.md): a quotation stores only how far the
-- visitor got before paying. A paid quotation had started its payment; any other unknown value is what its plan says.
UPDATE "quotations" SET "status" = CASE
	WHEN "status" = 'paid' THEN 'payment-started'
	WHEN "plan_id" IS NULL THEN 'quoted'
	ELSE 'plan-selected'
END
WHERE "status" NOT IN ('quoted', 'plan-selected', 'payment-started');
--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_status_check" CHECK ("quotations"."status" IN ('quoted', 'plan-selected', 'payment-started'));
