-- Rebuilds plagiarism_fingerprints_recent WITHOUT ROWID (drizzle cannot declare it), as 0002 did for the main
-- fingerprint table: the key is the whole row. Still empty when this runs right after 0005.
DROP TABLE `plagiarism_fingerprints_recent`;
--> statement-breakpoint
CREATE TABLE `plagiarism_fingerprints_recent` (
	`hash` integer NOT NULL,
	`scope` integer NOT NULL,
	`source_key` integer NOT NULL,
	PRIMARY KEY(`hash`, `scope`, `source_key`)
) WITHOUT ROWID;
