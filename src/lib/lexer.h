/* lexer.h - the HGN lexer (grammar/hgn.ebnf, Part 1) and the limits on
 * hostile input shared by the lexer and the parser (internal).
 *
 * The lexer reads a memory block or a FILE* through a fixed window, so a
 * file of any size is read in bounded memory; it decodes UTF-8 as it goes
 * and gives every token its file, line and column (columns count code
 * points).  Lexical errors are diagnosed where they occur and skipped, so
 * the parser only ever sees well-formed tokens; a token that carried an
 * error (a string left open, text cut at the length limit) is marked `bad`
 * so that nothing else is said about it.
 *
 * Design decision (issue 26): the lexer returns tokens and knows nothing
 * of the grammar.  It reads them two ways behind one contract: the clear
 * path, hg_lexer_next() (lexer.c), token by token; and the fast scanner,
 * hg_lexer_scan() (lexer-fast.c, its one entry point), which fills a batch
 * with the same tokens where the text is plain ASCII and stops wherever
 * the clear path has something to decide.  Seat prefixes, move numbers
 * and tag pairs are recognised by the parser from tokens, whichever way
 * they came, and the parser gathers action bodies into its arena
 * (atok.h).  The tests read every input both ways. */
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
/* Turns the fast scanner (and the clear path's runs of plain string
 * characters) off or on; it must make no difference but speed, and the
 * unit tests check that it makes none. */
void hg_lexer_set_careful_only(hg_lexer *lx, int on);
/* Whether the fast scanner classes runs of bytes with SSSE3, BMI1 and
 * BMI2 where the processor has them (the default), or with SSE2 only:
 * tests read both. */
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

/* The next token by the clear path (owned by the lexer, valid until the
 * next call). */
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

/* The fast scanner (lexer-fast.c), the lexer's second way of reading.
 *
 * Its one entry point, hg_lexer_scan(), fills a batch
 * with the tokens hg_lexer_next() would return next, token for token (kind,
 * position, text, value), and stops, returning what it has, wherever the
 * clear path has something to decide or to say: a comment, a NAG, a
 * glyph or '?', a parenthesis, '[', a non-ASCII or bad byte, a blank line,
 * a limit, the window's end.  hg_lexer_next() reads on from there.  The
 * scanner knows tokens only: seat prefixes, move numbers and tag pairs are
 * recognised by the parser from tokens, whichever way they were read, and
 * the parser gathers action bodies into its arena (atok.h).  Which way a
 * token is read makes no difference but speed: the unit tests and
 * fuzz/fuzz-hgn.c read every input both ways. */
typedef struct hg_scan_token {
	const char *text;	/* in the lexer's window (not NUL-terminated):
				   valid until the lexer is next called */
	unsigned len;		/* bytes in text */
	unsigned line, col;	/* the first character */
	unsigned end_col;	/* just after the last (tokens end on their line) */
	unsigned value;		/* a MOVENUM's (not set for other kinds) */
	hg_tk kind;		/* WORD, NUMBER, PUNCT, SEAT, MOVENUM, STRING
				   or RBRACKET */
	unsigned newline;	/* as hg_token; blank_line and bad are 0.
				   (No field is a char: a char store may
				   alias anything, and the scanner's locals
				   would be read again after each.) */
} hg_scan_token;

#define HG_SCAN_BATCH 256
typedef struct hg_scan_batch {
	size_t n;
	const char *end;	/* the end of the readable bytes the texts are in */
	const char *base;	/* the byte there is at offset base_off */
	uint64_t base_off;
	hg_scan_token v[HG_SCAN_BATCH];
} hg_scan_batch;

/* The byte offset of s in the source (hg_token.off), and just after it. */
static inline uint64_t hg_scan_off(const hg_scan_batch *b, const hg_scan_token *s)
{
	return b->base_off + (uint64_t)(s->text - b->base) - (s->kind == HG_TK_STRING);
}

static inline uint64_t hg_scan_end_off(const hg_scan_batch *b, const hg_scan_token *s)
{
	return hg_scan_off(b, s) + (s->end_col - s->col);
}

/* Fills b with the next tokens (0 or more) as hg_lexer_next() would read
 * them; returns b->n.  None when the lexer is set careful only. */
size_t hg_lexer_scan(hg_lexer *lx, hg_scan_batch *b);

/* The parser's limits (the lexer's included); for tests. */
void hg_parser_set_limits(hg_parser *p, const hg_limits *l);
/* hg_lexer_set_careful_only() for the parser's lexer; for tests. */
void hg_parser_set_careful_only(hg_parser *p, int on);
/* hg_lexer_set_plain_ssse3() for the parser's lexer; for tests. */
void hg_parser_set_plain_ssse3(hg_parser *p, int on);

#endif
