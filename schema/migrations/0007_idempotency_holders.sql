CREATE TABLE `instances` (
	`id` text PRIMARY KEY NOT NULL,
	`hostname` text NOT NULL,
	`pid` integer NOT NULL,
	`started_at` integer NOT NULL,
	`lease_expires_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `holder` text;--> statement-breakpoint
CREATE INDEX `idempotency_holder` ON `idempotency_keys` (`holder`);