/* check.h - what `herald check`'s two ways of checking share: one game's
 * item, its replay and its report (cmd-check.c), and the threads of -j N
 * (check-threads.c). */
#ifndef HERALD_CHECK_H
#define HERALD_CHECK_H

#include <time.h>

#include "cli.h"

typedef enum item_kind { ITEM_GAME, ITEM_LOOSE } item_kind;

/* One thing to report, in input order: a game, or diagnostics outside any
 * game (malformed text, an input that cannot be read). */
typedef struct item {
	item_kind kind;
	const char *path;
	size_t input;		/* the operand it came from */
	hg_game_record *rec;	/* GAME, until replayed */
	unsigned line;		/* GAME: what the report needs of the record */
	char *game_tag, *result_tag;
	cli_game_facts facts;	/* GAME: for the results table */
	hg_diags d;		/* parse diagnostics, then the replay's */
	int io;			/* LOOSE: an input/output failure */
	unsigned long long bytes_read;	/* of all the input, when it was read */
	cli_game_status status;
	int syntax_ok;
	size_t actions;
} item;

typedef struct check_run {
	cli_common common;
	unsigned long jobs;
	unsigned long long piece_bytes;	/* --piece-size */
	int no_progress;
	int allow_empty;	/* --allow-empty */
	int results;		/* --results */
	int from;		/* --from: cli_informat, -1: by extension */
	hg_session *session;
	cli_report *report;
	cli_progress *progress;
	size_t files;
	unsigned long long bytes_before;	/* of the inputs already read */
	struct timespec start;
	/* games are numbered in each file as they are reported */
	size_t games_reported, rep_input, rep_index;

	/* the stream reader: one input read game by game */
	const cli_inputs *inputs;
	int rd_open;
	cli_source rd_src;
	size_t rd_input;
	hg_diags rd_d;
} check_run;

/* Replays a game that parsed (one with a syntax error is only reported)
 * and frees its record. */
void check_replay_item(hg_session *session, item *it);
/* Reports an item and frees what it holds. */
void check_report_item(check_run *r, item *it);
/* Frees what an item holds, reporting nothing. */
void check_discard_item(item *it);
/* Diagnostics outside any game, moved out of d into an item. */
void check_loose_item(item *it, const char *path, size_t input, hg_diags *d, int io);
/* A game read, with the diagnostics found while reading it (moved). */
void check_game_item(item *it, const char *path, size_t input, hg_game_record *g,
		     hg_diags *d, unsigned long long bytes_read);

/* The stream reader, which reads an operand game by game.
 * check_stream_open opens operand `input`: 1; 0 when it cannot be read
 * and nothing is to be said; -1 when it cannot be read, *failed saying
 * why.  check_stream_next reads its next item: 1, or 0 at its end (it is
 * then closed). */
int check_stream_open(check_run *r, size_t input, item *failed);
int check_stream_next(check_run *r, item *it);

/* -j N (check-threads.c). */
void check_in_threads(check_run *r, const cli_inputs *in);

#endif
