CREATE TABLE `plagiarism_fingerprints_recent` (
	`hash` integer NOT NULL,
	`scope` integer NOT NULL,
	`source_key` integer NOT NULL,
	PRIMARY KEY(`hash`, `scope`, `source_key`)
);
