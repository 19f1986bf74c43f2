/* select.h - what `herald select` is made of (herald-select(1)): the
 * criteria a game must meet (select-criteria.c), one game's evaluation
 * against them (select-game.c), and the set of the action sequences
 * already seen, for --unique (select-unique.c).  The command itself, its
 * threads and its output are cmd-select.c. */
#ifndef HERALD_SELECT_H
#define HERALD_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* A user's regular expression (PCRE2), matched against the whole of a
 * folded subject (hg_name_fold: case and accents folded away), within
 * PCRE2's match limits so that a pathological pattern cannot hang. */
typedef struct select_regex select_regex;

/* What a thread needs to match (PCRE2's match data and context): one per
 * thread, since a match writes to them. */
typedef struct select_scratch select_scratch;

select_scratch *select_scratch_new(void);
void select_scratch_free(select_scratch *s);

/* One criterion on a game's tags. */
typedef enum select_tag_kind {
	SELECT_TAG,		/* --tag NAME=REGEX */
	SELECT_PLAYER,		/* --player REGEX: any of the players' names */
	SELECT_GAME,		/* --game NAME: the game the Game tag names */
	SELECT_DATE_FROM,	/* --date-from DATE */
	SELECT_DATE_TO		/* --date-to DATE */
} select_tag_kind;

typedef struct select_tag_crit {
	select_tag_kind kind;
	char *name;		/* TAG: the tag's name */
	select_regex *re;	/* TAG, PLAYER */
	const hg_game_class *game;	/* GAME: the game named */
	char date[11];		/* DATE_*: YYYY.MM.DD */
} select_tag_crit;

typedef struct select_tag_list {
	select_tag_crit *v;
	size_t n, cap;
} select_tag_list;

/* A position fact to hold (--position "FACT [ARG] OP VALUE"). */
typedef enum select_op { SELECT_EQ, SELECT_NE, SELECT_LT, SELECT_LE, SELECT_GT, SELECT_GE } select_op;

typedef struct select_position {
	char *fact;		/* its name, one of a game's facts */
	char *arg;		/* "" for a fact of the whole position */
	select_op op;
	char *value;
	int numeric;		/* value is a whole number */
	long number;
} select_position;

/* Parses --position's expression.  0, or -1 with the reason in err. */
int select_position_parse(select_position *p, const char *expr, hg_buf *err);
void select_position_free(select_position *p);
/* Does the fact hold in the position?  A game without the fact, or an
 * argument that names nothing in it, does not. */
int select_position_holds(const select_position *p, const hg_game_class *cls,
			  const hg_state *st, hg_buf *scratch);

/* Everything a selection asks of a game. */
typedef struct select_spec {
	select_tag_list all;	/* the options' criteria: every one must hold */
	select_tag_list any;	/* --criteria FILE: one must hold */
	int has_any;		/* a criteria file was given */
	unsigned verdicts;	/* bit (1 << cli_game_status) per verdict asked; 0: any */
	char **codes;		/* --code: a diagnostic of one of these */
	size_t ncodes;
	select_regex **actions;	/* --action: each matched by some action */
	size_t nactions;
	char *seat;		/* --seat: only that seat's actions count */
	select_position *positions;	/* --position: all hold at once in a
					   position of the main line */
	size_t npositions;
	int invert;		/* --invert */
	int unique;		/* --unique: the hash of the actions is needed */
} select_spec;

void select_spec_free(select_spec *s);

/* Compiles a user's regular expression: NULL when it is invalid, with
 * PCRE2's message and the offset where it fails in err. */
select_regex *select_regex_new(const char *pattern, hg_buf *err);
void select_regex_free(select_regex *re);
/* 1 when the whole folded subject matches, 0 when not, -1 when PCRE2 gave
 * up at its match limit. */
int select_regex_match(const select_regex *re, const char *subject, select_scratch *s);

/* Parses one criterion: `option` is its long option's name without the
 * dashes (tag, player, game, variant, result, date-from, date-to) and arg
 * its argument.  0, or -1 with the reason in err. */
int select_criterion_parse(select_tag_crit *c, const char *option, const char *arg,
			   hg_buf *err);
void select_tag_list_push(select_tag_list *l, const select_tag_crit *c);
/* Reads a criteria file (one criterion a line: `OPTION ARGUMENT`; blank
 * lines and lines beginning with '#' skipped) into s->any.  0, or -1 with
 * the file, line and reason in err. */
int select_criteria_file(select_spec *s, const char *path, hg_buf *err);

/* Do the game's tags meet the criteria (every one of `all`, and one of
 * `any` when a criteria file was given)?  1, 0, or -1 when a match gave
 * up at PCRE2's limit. */
int select_tags_match(const select_spec *s, const hg_game_record *rec, select_scratch *sc);

/* What one game came to (select-game.c). */
typedef struct select_outcome {
	int matched;		/* every criterion holds (before --invert) */
	int limit;		/* a regular expression gave up on this game */
	int hashed;		/* hash is set (--unique) */
	unsigned char hash[16];
} select_outcome;

#define SELECT_HASH_BYTES 16

/* Evaluates a game that parsed without error.  Replays it only when a
 * verdict or a code is asked; canonicalises its actions (from its set-up,
 * without replaying) only when --action, --seat or --unique needs them.
 * Diagnostics of the replay go to d. */
void select_game(const select_spec *s, hg_session *session, const hg_game_record *rec,
		 select_scratch *sc, hg_diags *d, select_outcome *out);

/* The hashes of the distinct action sequences seen (select-unique.c):
 * SELECT_HASH_BYTES each in an open-addressing table at most half full. */
typedef struct select_seen select_seen;
select_seen *select_seen_new(void);
void select_seen_free(select_seen *t);
/* Adds the hash: 1 when it is new, 0 when it was already there. */
int select_seen_add(select_seen *t, const unsigned char hash[SELECT_HASH_BYTES]);

#endif
