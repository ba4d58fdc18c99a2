-- Rebuilds plagiarism_fingerprints WITHOUT ROWID (drizzle cannot declare it): the primary key is the whole row,
-- so the table is one B-tree instead of a rowid table plus an equal-sized key index. Same columns and key as
-- schema/plagiarism.ts; the table is still empty when this runs right after 0001.
DROP TABLE `plagiarism_fingerprints`;
--> statement-breakpoint
CREATE TABLE `plagiarism_fingerprints` (
	`hash` integer NOT NULL,
	`scope` integer NOT NULL,
	`source_key` integer NOT NULL,
	PRIMARY KEY(`hash`, `scope`, `source_key`)
) WITHOUT ROWID;
