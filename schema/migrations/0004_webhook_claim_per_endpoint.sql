DROP INDEX `webhook_deliveries_due`;--> statement-breakpoint
DROP INDEX `webhook_deliveries_lease`;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `bypasses_pause` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_due` ON `webhook_deliveries` (`endpoint_id`,`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_lease` ON `webhook_deliveries` (`endpoint_id`,`lease_expires_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_bypassing_pause` ON `webhook_deliveries` (`endpoint_id`,`next_attempt_at`) WHERE status = 'pending' AND bypasses_pause = 1;