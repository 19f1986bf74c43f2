/* lexer.h - the HGN lexer (grammar/hgn.ebnf, Part 1) and the limits on
 * hostile input shared by the lexer and the parser (internal).
 *
 * The lexer reads a memory block or a FILE* through a fixed window, so a
 * file of any size is read in bounded memory; it decodes UTF-8 as it goes
 * and gives every token its file, line and column (columns count code
 * points).  Lexical errors are diagnosed where they occur and skipped, so
 * the parser only ever sees well-formed tokens; a token that carried an
 * error (a string left open, text cut at the length limit) is marked `bad`
 * so that nothing else is said about it. */
#ifndef HERALD_LEXER_H
#define HERALD_LEXER_H

#include <stdio.h>

#include "internal.h"

/* Errors in one game before the rest of it is skipped (LIMITS). */
#define HG_MAX_ERRORS 100

/* The limits on hostile input (herald-notation(5), LIMITS).  The defaults
 * are the HG_MAX_* constants; the unit tests lower them to exercise every
 * limit cheaply. */
typedef struct hg_limits {
	size_t nesting;		/* variations inside variations */
	size_t token;		/* bytes in one token, comment or tag value */
	size_t line;		/* bytes in one line */
	size_t game;		/* bytes in one game */
	size_t actions;		/* actions in one game, every line */
	size_t tags;		/* tag pairs in one game */
	size_t elements;	/* move numbers, comments, NAGs, variations */
	size_t errors;		/* errors in one game before it is skipped */
} hg_limits;

void hg_limits_default(hg_limits *l);

typedef enum hg_tk {
	HG_TK_EOF,
	HG_TK_LBRACKET,		/* [ */
	HG_TK_RBRACKET,		/* ] */
	HG_TK_STRING,		/* "..." (text: unescaped) */
	HG_TK_MOVENUM,		/* 12. (value) */
	HG_TK_SEAT,		/* P1: (text: the seat, without the colon) */
	HG_TK_WORD,
	HG_TK_NUMBER,		/* digits only */
	HG_TK_PUNCT,		/* , / + = > < @ & | ~ ^ % */
	HG_TK_HIDDEN,		/* ? standing alone */
	HG_TK_GLYPH,		/* ! ? !! ?? !? ?! attached to the body token before */
	HG_TK_NAG,		/* $n (value) */
	HG_TK_COMMENT,		/* {...} (text: between the braces) */
	HG_TK_LINE_COMMENT,	/* ; ... (text: trimmed) */
	HG_TK_LPAREN,
	HG_TK_RPAREN,
	HG_TK_STAR,
	HG_TK_COLON		/* a ':' that follows no word: always an error */
} hg_tk;

typedef struct hg_token {
	hg_tk kind;
	hg_pos pos;		/* the first character */
	hg_pos end;		/* just after the last character */
	uint64_t off;		/* byte offset of the first character in the source */
	const char *text;	/* NUL-terminated; valid until the next token */
	size_t len;		/* bytes in text */
	unsigned long value;	/* MOVENUM, NAG */
	int newline;		/* first token of its line (or of the input) */
	int blank_line;		/* a blank line lies between it and the token before */
	int bad;		/* an error was reported inside it */
} hg_token;

typedef struct hg_lexer hg_lexer;

/* `name` is copied; `text` is borrowed and must outlive the lexer.  The
 * openers return NULL when there is no memory for the lexer (an owned fp
 * is then closed). */
hg_lexer *hg_lexer_open_mem(const char *name, const char *text, size_t len);
/* Reads `fp` through a fixed window; closes it at hg_lexer_close when
 * `owned`. */
hg_lexer *hg_lexer_open_stream(const char *name, FILE *fp, int owned);
/* The same from a resume point (herald.h): fp stands at at->offset. */
hg_lexer *hg_lexer_open_stream_at(const char *name, FILE *fp, int owned, const hg_resume *at);
void hg_lexer_close(hg_lexer *lx);
void hg_lexer_set_limits(hg_lexer *lx, const hg_limits *l);
/* Turns the plain path (plain ASCII read in one pass) off or on; it must
 * make no difference but speed, and the unit tests check that it makes
 * none. */
void hg_lexer_set_careful_only(hg_lexer *lx, int on);
/* Whether the plain path reads runs of tokens with SSSE3, BMI1 and BMI2
 * where the processor has them (the default), or with SSE2 only: tests
 * read both. */
void hg_lexer_set_plain_ssse3(hg_lexer *lx, int on);
const hg_limits *hg_lexer_limits(const hg_lexer *lx);
/* The source name every position points to (owned by the lexer). */
const char *hg_lexer_name(const hg_lexer *lx);
/* Where the lexer reports: every diagnostic goes to this list until the
 * next call. */
void hg_lexer_set_diags(hg_lexer *lx, hg_diags *d);
/* Starts the first line of positions at `pos` instead of 1:1 (for a body
 * cut out of its context).  A position with line 0 (unknown) is given to
 * every token unchanged. */
void hg_lexer_set_origin(hg_lexer *lx, hg_pos pos);

/* The next token (owned by the lexer, valid until the next call). */
const hg_token *hg_lexer_next(hg_lexer *lx);

/* 1 when the lexer, having just read the token t (a '['), is in the state
 * a lexer opened at `at` is in after reading the '[' there. */
int hg_lexer_resumes_at(const hg_lexer *lx, const hg_token *t, const hg_resume *at);

/* Per-game accounting: the byte count for HG_MAX_GAME and the error count
 * for HG_MAX_ERRORS start again from zero. */
void hg_lexer_begin_game(hg_lexer *lx);
/* True once the current game must be abandoned: it grew past the game
 * limit or past the error limit (both already reported). */
int hg_lexer_game_abandoned(const hg_lexer *lx);
/* Skips raw characters, reporting nothing, up to the next "[" that begins a
 * line (or the end).  The next token is that "[". */
void hg_lexer_skip_game(hg_lexer *lx);
/* The byte offset of the current character in the source (bytes read so
 * far, a byte order mark included). */
uint64_t hg_lexer_offset(const hg_lexer *lx);
/* 1 after a read error (errno kept in *err), else 0. */
int hg_lexer_io_error(const hg_lexer *lx, int *err);

/* Reports an error at `pos`, counting it against the game's error limit:
 * the limit-th error is followed by hgn.too-many-errors and nothing more is
 * reported until hg_lexer_begin_game.  Returns the diagnostic (for notes)
 * or NULL when it was suppressed. */
hg_diag *hg_lexer_error(hg_lexer *lx, hg_pos pos, const char *code,
			const char *fmt, ...) HG_PRINTF(4, 5);

/* Reports a warning at `pos` (not counted against the error limit);
 * NULL when the game's diagnostics are off. */
hg_diag *hg_lexer_warning(hg_lexer *lx, hg_pos pos, const char *code,
			  const char *fmt, ...) HG_PRINTF(4, 5);

const char *hg_tk_name(hg_tk kind);
/* Word, number, punctuation or '?': what an action's body is made of. */
static inline int hg_lexer_is_body(hg_tk kind)
{
	return kind == HG_TK_WORD || kind == HG_TK_NUMBER || kind == HG_TK_PUNCT ||
	       kind == HG_TK_HIDDEN;
}

/* The body tokens of actions as they are gathered, one action after
 * another: their kinds, positions and offsets in v, and their texts in two
 * twin buffers of the same length.  In `text` an action's tokens are joined
 * by single spaces; in `split`, at the same offsets, each token ends in a
 * NUL.  Both end each action with a NUL.  v[first..n) and the bytes from
 * text0 are the action being gathered; what comes before, the actions
 * kept.  In an arena list each token's text pointer is set when it is
 * put; a malloc'd list leaves it NULL (hg_action_text_make sets it). */
typedef struct hg_atok_list {
	hg_atok *v;
	size_t n, cap;
	hg_buf text;
	char *split;		/* text's twin: text.cap bytes */
	size_t first;		/* the action being gathered: v[first..n), */
	size_t text0;		/* and its texts from this offset on */
	int not_ascii;		/* one of its tokens has a byte above 0x7f */
	/* When set, the room is blocks of this arena (a record's): the
	 * tokens and texts are where the record keeps them, and each token's
	 * text points into split from when it is put.  Else malloc's, the
	 * list's own, and the texts' pointers are left NULL. */
	struct hg_arena *arena;
} hg_atok_list;

/* Appends a body token; its position is re-pointed at `file` (the record's
 * own copy of the source name).  A token there is no memory for is dropped
 * (the unit of work, util.c, ends in HG_ENOMEM). */
void hg_atok_list_push(hg_atok_list *l, const hg_token *tk, const char *file);
/* A seat prefix that ended a gathered body, taken on the plain path: its
 * name (in the lexer's window: valid until the lexer is next called, and
 * not NUL-terminated), where it begins, and where its ':' ends. */
typedef struct hg_plain_seat {
	const char *text;
	size_t len;
	/* lines and columns: the parser makes its positions of them */
	unsigned line, col;		/* where it begins */
	unsigned end_line, end_col;	/* where its ':' ends */
} hg_plain_seat;
/* The actions of a run of plain actions (most of a record), each ended by
 * the seat prefix of the next and kept in the list as hg_atok_list_keep()
 * keeps one: its tokens, its joined text, and that seat prefix. */
#define HG_PLAIN_RUN 16
typedef struct hg_plain_action {
	hg_atok *toks;
	size_t ntoks;
	char *text;
	size_t len;
	int ascii;
	hg_plain_seat next;	/* the seat prefix after it */
} hg_plain_action;
typedef struct hg_plain_run {
	size_t n;
	hg_plain_action v[HG_PLAIN_RUN];
} hg_plain_run;
/* Gathers, in one pass, the plain body tokens that come next (ASCII words,
 * numbers and punctuation, within the window and the limits), as
 * hg_lexer_next() and hg_atok_list_push() would one at a time; stops before
 * anything else (a seat prefix, a move number, a comment, a glyph, a
 * non-ASCII character, a blank line), which hg_lexer_next() then reads.
 * On the way it takes up to `seats` seat prefixes (at most HG_PLAIN_RUN,
 * and only in an arena's list), as hg_lexer_take_seat() would, each
 * ending an action that has tokens gathered by this call: those actions
 * are kept and described in *run (run may be NULL when seats is 0).
 * Returns how many tokens it gathered for the action it stopped in, and
 * then sets *last_end to the end of the last one. */
size_t hg_lexer_gather_body(hg_lexer *lx, hg_atok_list *l, const char *file,
			    hg_pos *last_end, size_t seats, hg_plain_run *run);
/* Right after hg_lexer_gather_body() gathered a body that a plain seat
 * prefix ends, takes that prefix without making it a token (the next
 * action follows): returns 1, and the lexer stands after the ':'.  Returns
 * 0, taking nothing, when something else comes next, or a seat prefix
 * that hg_lexer_next() must read. */
int hg_lexer_take_seat(hg_lexer *lx, hg_plain_seat *seat);
/* A plain move number taken so: its number, where it begins and where its
 * dots end (as in hg_plain_seat). */
typedef struct hg_plain_movenum {
	unsigned number;
	unsigned line, col;
	unsigned end_line, end_col;
} hg_plain_movenum;
/* The same for a plain move number (`12.`) that ended a gathered body. */
int hg_lexer_take_movenum(hg_lexer *lx, hg_plain_movenum *m);
/* Takes a plain seat prefix as the next token (after a move number taken
 * so): 1, or 0 taking nothing. */
int hg_lexer_take_next_seat(hg_lexer *lx, hg_plain_seat *seat);
/* The rest of a tag pair whose '[' is the current token, taken whole:
 * its name, its value (the string's text, without quotes) and where each
 * begins, and where its ']' ends. */
typedef struct hg_plain_tag {
	const char *name, *value;	/* in the input: not NUL-terminated */
	size_t name_len, value_len;
	hg_pos name_pos, value_pos, end;
} hg_plain_tag;
/* Takes `Name "value"]` on the current line by the plain path, as
 * hg_lexer_next() would read its three tokens, when the name is a letter
 * then letters, digits and '_' and the value printable ASCII without
 * escapes, all within the limits: returns 1, and the lexer stands after
 * the ']'.  Returns 0, taking nothing, for anything else, which
 * hg_lexer_next() then reads token by token. */
int hg_lexer_take_tag(hg_lexer *lx, hg_plain_tag *tag);
/* Empties the list, kept actions and all (its room is kept). */
static inline void hg_atok_list_clear(hg_atok_list *l)
{
	l->n = l->first = 0;
	l->text.len = l->text0 = 0;
	l->not_ascii = 0;
}
/* Starts the next action, dropping what was gathered since the last
 * hg_atok_list_keep(). */
static inline void hg_atok_list_restart(hg_atok_list *l)
{
	l->n = l->first;
	l->text.len = l->text0;
	l->not_ascii = 0;
}
/* Keeps the action gathered: it ends (its NUL) at text.len, and the next
 * begins after it.  *toks and *text are set to where its tokens (NULL if
 * none) and its joined text are: in an arena list they stay there, as
 * only the action being gathered moves when the list grows.  0, or -1 when
 * there was no memory for its NUL (nothing kept). */
int hg_atok_list_keep(hg_atok_list *l, hg_atok **toks, char **text);
void hg_atok_list_free(hg_atok_list *l);
/* Makes the list empty, its room a block of arena `a` for `toks` tokens
 * and `bytes` bytes of text (it grows as it must, in new blocks of `a`).
 * hg_atok_list_free() then leaves the room to the arena.  0, or -1 when
 * the block could not be had (the list is empty). */
int hg_atok_list_attach(hg_atok_list *l, struct hg_arena *a, size_t toks, size_t bytes);
/* Makes *t from the seat and the action being gathered in one block
 * (its owner, hg_action_text_own_block) from malloc: the token array, the joined text, each token's
 * text and the seat.  t->pos is the first token's position (the seat's
 * when there is none).  0, or -1 when the block could not be had (*t
 * zeroed). */
int hg_action_text_make(hg_action_text *t, const char *seat, size_t seat_len,
			hg_pos seat_pos, const hg_atok_list *l);

/* The parser's limits (the lexer's included); for tests. */
void hg_parser_set_limits(hg_parser *p, const hg_limits *l);
/* hg_lexer_set_careful_only() for the parser's lexer; for tests. */
void hg_parser_set_careful_only(hg_parser *p, int on);
/* hg_lexer_set_plain_ssse3() for the parser's lexer; for tests. */
void hg_parser_set_plain_ssse3(hg_parser *p, int on);

#endif
