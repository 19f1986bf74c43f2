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
	const char *text;	/* NUL-terminated; valid until the next token */
	size_t len;		/* bytes in text */
	unsigned long value;	/* MOVENUM, NAG */
	int newline;		/* first token of its line (or of the input) */
	int blank_line;		/* a blank line lies between it and the token before */
	int bad;		/* an error was reported inside it */
} hg_token;

typedef struct hg_lexer hg_lexer;

/* `name` is copied; `text` is borrowed and must outlive the lexer. */
hg_lexer *hg_lexer_open_mem(const char *name, const char *text, size_t len);
/* Reads `fp` through a fixed window; closes it at hg_lexer_close when
 * `owned`. */
hg_lexer *hg_lexer_open_stream(const char *name, FILE *fp, int owned);
void hg_lexer_close(hg_lexer *lx);
void hg_lexer_set_limits(hg_lexer *lx, const hg_limits *l);
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

/* Per-game accounting: the byte count for HG_MAX_GAME and the error count
 * for HG_MAX_ERRORS start again from zero. */
void hg_lexer_begin_game(hg_lexer *lx);
/* True once the current game must be abandoned: it grew past the game
 * limit or past the error limit (both already reported). */
int hg_lexer_game_abandoned(const hg_lexer *lx);
/* Skips raw characters, reporting nothing, up to the next "[" that begins a
 * line (or the end).  The next token is that "[". */
void hg_lexer_skip_game(hg_lexer *lx);
/* 1 after a read error (errno kept in *err), else 0. */
int hg_lexer_io_error(const hg_lexer *lx, int *err);

/* Reports an error at `pos`, counting it against the game's error limit:
 * the limit-th error is followed by hgn.too-many-errors and nothing more is
 * reported until hg_lexer_begin_game.  Returns the diagnostic (for notes)
 * or NULL when it was suppressed. */
hg_diag *hg_lexer_error(hg_lexer *lx, hg_pos pos, const char *code,
			const char *fmt, ...) HG_PRINTF(4, 5);

const char *hg_tk_name(hg_tk kind);
/* Word, number, punctuation or '?': what an action's body is made of. */
int hg_lexer_is_body(hg_tk kind);

/* Appends a body token to an action: its text joins t->text (built in
 * `text`, one space between tokens); positions are re-pointed at `file`
 * (the record's own copy of the source name).  `cap` is t->toks' capacity. */
void hg_action_text_push(hg_action_text *t, size_t *cap, hg_buf *text,
			 const hg_token *tk, const char *file);

/* The parser's limits (the lexer's included); for tests. */
void hg_parser_set_limits(hg_parser *p, const hg_limits *l);

#endif
