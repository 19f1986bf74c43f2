/* replay.h - what the files of `herald replay` share: the replay of one
 * game as a sequence of steps in the record's order (replay-walk.c), and
 * the writers that show it as text, JSON Lines or a page. */
#ifndef HERALD_CLI_REPLAY_H
#define HERALD_CLI_REPLAY_H

#include "cli.h"

/* One action of the record as the replay reached it. */
typedef struct replay_step {
	const hg_node *node;		/* the action */
	unsigned depth;			/* 0: the main line */
	unsigned ply;			/* its number in its line, counted from the
					   game's start (a variation goes on from the
					   action it replaces) */
	unsigned movenum;		/* the move number written right before, or 0 */
	char *label;			/* the first action of a variation: "variation
					   1, instead of ..."; else NULL */
	/* The comments and NAGs written before it (since the previous action,
	 * variation or move number of its line, and after a move number) and
	 * right after it (with, for a line's last action, those that end the
	 * line). */
	const hg_node **before, **after;
	size_t nbefore, nafter;
	int illegal;			/* not applied: its line stops here */
	const hg_state *after_state;	/* the position after it; NULL when illegal */
	const hg_diag **diags;		/* the diagnostics about it */
	size_t ndiags;
} replay_step;

/* What a writer is given, in the record's order.  Positions and
 * diagnostics are valid only during the call. */
typedef struct replay_sink {
	/* The set-up (start NULL when the tags are unusable) and the
	 * diagnostics about the tags. */
	void (*start)(void *ctx, const hg_game_record *g, const hg_game_class *cls,
		      const hg_state *start, const hg_diag **diags, size_t ndiags);
	void (*step)(void *ctx, const hg_game_class *cls, const replay_step *st);
	/* The main line's last position (NULL when there is none), and the
	 * diagnostics no action took (the result, the end). */
	void (*end)(void *ctx, const hg_game_record *g, const hg_game_class *cls,
		    const hg_state *final, const hg_diag **diags, size_t ndiags);
	void *ctx;
} replay_sink;

/* Replays g, calling the sink in the record's order; returns 0 when the
 * game is legal, -1 when it is not (the diagnostics are in d).
 * errors_only: the steps carry only the errors (a seat's view, whose
 * unverified diagnostics are no news to the seat). */
int replay_walk(hg_session *session, const hg_game_record *g, hg_diags *d,
		const replay_sink *sink, int errors_only);

/* Annotations in words (herald-replay(1)): a glyph ("!") or NAG number;
 * NULL when it has none. */
const char *replay_glyph_words(const char *glyph);
const char *replay_nag_words(unsigned nag);

/* The options that choose what is shown. */
typedef struct replay_opts {
	unsigned start, to;		/* plies shown (to 0: to the end) */
	int compact;			/* the changes, not the position */
	unsigned *full;			/* --full: plies shown in full anyway */
	size_t nfull;
} replay_opts;

int replay_opts_shows(const replay_opts *o, unsigned ply);

/* The JSON of the replay (replay-json.c), one object per line
 * (grammar/herald-replay.schema.json). */
json_t *replay_json_start(const hg_game_record *g, const hg_game_class *cls, const hg_state *start,
			  size_t index, const char *path, const hg_diag **diags, size_t ndiags);
json_t *replay_json_step(const hg_game_class *cls, const replay_step *st);
json_t *replay_json_end(const hg_game_record *g, const hg_game_class *cls, const hg_state *final,
			const hg_diag **diags, size_t ndiags);
json_t *replay_json_position(const hg_game_class *cls, const hg_state *s);
/* The changes from one position's JSON to the next, one "path: old -> new"
 * line each, indented. */
void replay_json_changes(const json_t *before, const json_t *after, unsigned indent,
			 hg_buf *out);

/* A writer: a sink that writes to its buffer (text and JSON after each
 * step, the page at the end), with the game it is at for its headings. */
typedef struct replay_writer replay_writer;
struct replay_writer {
	replay_sink sink;
	const char *path;		/* the file and the game's number in it */
	size_t index;
	const char *as;			/* --as: the seat whose view it is, or NULL */
	int (*finish)(replay_writer *w);	/* 0, or -1 after a message */
	void (*free)(replay_writer *w);
	int io_error;			/* a write failed (said once) */
};

/* The text and the JSON go out as they are made, so that a long game
 * needs no memory for all of its output: writes `out` to standard output
 * once it holds enough.  After a write error the rest is dropped. */
void replay_writer_flush(replay_writer *w, hg_buf *out);

replay_writer *replay_text_new(const replay_opts *o, hg_buf *out);
replay_writer *replay_jsonl_new(const replay_opts *o, hg_buf *out);
/* The page reads its style, script and layouts through the data path;
 * print: one position a page. */
replay_writer *replay_html_new(const replay_opts *o, hg_buf *out, const hg_datapath *path,
			       int print);

/* Text of a comment as a block: each line indented (replay-text.c). */
void replay_comment_block(hg_buf *out, const hg_node *n, unsigned indent);

#endif
