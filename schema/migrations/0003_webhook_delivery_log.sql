CREATE TABLE `webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`outcome` text NOT NULL,
	`started_at` integer NOT NULL,
	`duration_ms` integer,
	`status_code` integer,
	`error` text,
	`response_excerpt` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery` ON `webhook_attempts` (`delivery_id`,`attempt`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_started` ON `webhook_attempts` (`started_at`);--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `max_attempts` integer;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `lease_token` text;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `last_attempt_at` integer;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_lease` ON `webhook_deliveries` (`lease_expires_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_finished` ON `webhook_deliveries` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `events_created` ON `events` (`created_at`);