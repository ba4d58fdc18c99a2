CREATE TABLE `library_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`source_key` integer NOT NULL,
	`title` text NOT NULL,
	`url` text,
	`text` text NOT NULL,
	`word_count` integer NOT NULL,
	`metadata` text NOT NULL,
	`fingerprint_version` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`source_key`) REFERENCES `plagiarism_source_keys`(`key`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `library_documents_source_key_unique` ON `library_documents` (`source_key`);--> statement-breakpoint
CREATE INDEX `library_documents_workspace` ON `library_documents` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `plagiarism_fingerprints` (
	`hash` integer NOT NULL,
	`scope` integer NOT NULL,
	`source_key` integer NOT NULL,
	PRIMARY KEY(`hash`, `scope`, `source_key`)
);
--> statement-breakpoint
CREATE TABLE `plagiarism_scopes` (
	`key` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plagiarism_scopes_workspace_id_unique` ON `plagiarism_scopes` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `plagiarism_source_keys` (
	`key` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `web_pages` (
	`id` text PRIMARY KEY NOT NULL,
	`source_key` integer NOT NULL,
	`url` text NOT NULL,
	`title` text NOT NULL,
	`text` text NOT NULL,
	`word_count` integer NOT NULL,
	`fingerprint_version` integer NOT NULL,
	`fetched_at` integer NOT NULL,
	FOREIGN KEY (`source_key`) REFERENCES `plagiarism_source_keys`(`key`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `web_pages_source_key_unique` ON `web_pages` (`source_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `web_pages_url_unique` ON `web_pages` (`url`);