/* lexer.c - the HGN lexer (grammar/hgn.ebnf, Part 1), in the manner of
 * Lua's llex.c: one current character, one function per kind of token.
 *
 * The source is read through a fixed window (a memory block needs none), so
 * memory does not grow with the input.  Characters are code points: each is
 * decoded once, and columns count them.  Bytes that are not UTF-8 and NUL
 * bytes are reported where they stand and then act as white space (outside
 * comments and strings) or as U+FFFD (inside them), so every token's text is
 * valid UTF-8 and nothing after the bad byte is lost. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* Where the compiler can build a function for SSSE3, BMI1 and BMI2 beside
 * the rest (for the processors that have them, found at run time), runs
 * of tokens are classed with SSSE3's byte shuffles and their masks read
 * with the bit instructions. */
#if defined(__SSE2__) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define RUN_SSSE3_BESIDE 1
#include <tmmintrin.h>
#endif

#include "lexer.h"

#define EOZ (-1)		/* end of input */
#define BADBYTE (-2)		/* an invalid byte or a NUL, already reported */
#define WINDOW (64 * 1024)	/* bytes read from a stream at a time */

enum { BAD_NONE, BAD_UTF8, BAD_NUL };

/* The position of a character: what next() keeps in the lexer. */
typedef struct plain_pos {
	unsigned line, col;
	size_t line_bytes, game_bytes;
} plain_pos;

struct hg_lexer {
	char *name;
	hg_diags *d;
	hg_limits lim;

	/* the source: [p, end) is unread; a stream refills win */
	FILE *fp;
	int owned;
	unsigned char *win;
	const unsigned char *p, *end;
	const unsigned char *base;	/* the byte at offset base_off */
	uint64_t base_off;
	int at_eof;		/* nothing beyond end */
	int ioerr, err;

	/* the current character */
	int started;
	long c;			/* code point, EOZ or BADBYTE */
	int clen;		/* its bytes */
	unsigned line, col;	/* its position */
	int known;		/* 0: every position is `origin` */
	hg_pos origin;
	int bad_run;		/* BAD_*: kind of the bad character just left */
	int seen_utf8;		/* a multi-byte UTF-8 character was read */
	int latin1;		/* the game was found to be Latin-1: said once,
				 * its other bytes are read as Windows-1252 */
	int line_clean;		/* only spaces so far on this line */
	size_t line_bytes;
	int line_reported;
	size_t game_bytes;
	int game_over;
	size_t nerrors;
	int gave_up;
	int skipping;

	/* the token being built */
	hg_token tok;
	hg_buf buf;
	int attach;		/* the last token was a body token, nothing after it */
	unsigned tokens_on_line;
	int cut_at_game;	/* a comment stopped at the next game's '[' */
	int control_seen;	/* the token has had its control character reported */
	int careful_only;	/* no plain path (tests compare the two) */
	int run_ssse3;		/* runs classed with SSSE3 (tests turn it off) */
	int resumed;		/* opened at a resume point, not at the start */
	/* The token that ended a gathered body, scanned but not made yet:
	 * hg_lexer_next() makes it, hg_lexer_take_seat() takes a seat
	 * prefix without making it.  The lexer stands before its blanks. */
	int pending;
	struct {
		const unsigned char *t, *r;	/* its characters */
		plain_pos at;			/* the position of t */
		hg_tk kind;			/* as plain_word() said */
		int dot;
	} ahead;
};

void hg_limits_default(hg_limits *l)
{
	l->nesting = HG_MAX_NESTING;
	l->token = HG_MAX_TOKEN;
	l->line = HG_MAX_LINE;
	l->game = HG_MAX_GAME;
	l->actions = HG_MAX_ACTIONS;
	l->tags = HG_MAX_TAGS;
	l->elements = HG_MAX_ELEMENTS;
	l->errors = HG_MAX_ERRORS;
}
/* Does this processor have SSSE3, BMI1 and BMI2, for the runs of tokens
 * (asked once)? */
static int run_ssse3_here(void)
{
#ifdef RUN_SSSE3_BESIDE
	/* 0: not asked yet, else 1 + the answer.  Atomic: lexers open on many
	 * threads at once (check -j); two that race both ask, no harm. */
	static atomic_int answer;
	int a = atomic_load_explicit(&answer, memory_order_relaxed);
	if (!a) {
		a = 1 + (__builtin_cpu_supports("ssse3") && __builtin_cpu_supports("bmi") &&
			 __builtin_cpu_supports("bmi2"));
		atomic_store_explicit(&answer, a, memory_order_relaxed);
	}
	return a - 1;
#else
	return 0;
#endif
}


/* ------------------------------------------------------------------------
 * Opening and closing
 * ------------------------------------------------------------------------ */

static hg_lexer *lexer_new(const char *name)
{
	hg_lexer *lx = hg_xcalloc(1, sizeof *lx);
	lx->name = hg_xstrdup(name ? name : "-");
	lx->run_ssse3 = run_ssse3_here();
	hg_limits_default(&lx->lim);
	lx->line = lx->col = 1;
	lx->known = 1;
	lx->line_clean = 1;
	hg_buf_init(&lx->buf);
	return lx;
}

hg_lexer *hg_lexer_open_mem(const char *name, const char *text, size_t len)
{
	hg_lexer *lx = lexer_new(name);
	lx->p = lx->base = (const unsigned char *)(text ? text : "");
	lx->end = lx->p + (text ? len : 0);
	lx->at_eof = 1;
	return lx;
}

hg_lexer *hg_lexer_open_stream(const char *name, FILE *fp, int owned)
{
	hg_lexer *lx = lexer_new(name);
	lx->fp = fp;
	lx->owned = owned;
	lx->win = hg_xmalloc(WINDOW);
	lx->p = lx->end = lx->base = lx->win;
	return lx;
}

hg_lexer *hg_lexer_open_stream_at(const char *name, FILE *fp, int owned, const hg_resume *at)
{
	hg_lexer *lx = hg_lexer_open_stream(name, fp, owned);
	lx->resumed = 1;
	lx->base_off = at->offset;
	lx->line = at->line;
	lx->game_bytes = (size_t)at->game_bytes;
	return lx;
}

/* What a lexer opened at `at` is, once it has read the '[' there: the
 * state a lexer that read the file from its start must be in for both to
 * read on alike (every field that a later token or diagnostic depends on;
 * the window is not one). */
int hg_lexer_resumes_at(const hg_lexer *lx, const hg_token *t, const hg_resume *at)
{
	return t->kind == HG_TK_LBRACKET && t->newline && !t->bad && t->off == at->offset &&
	       t->pos.line == at->line && t->pos.col == 1 &&
	       /* on the character after the '[': plain ASCII, nothing reported */
	       hg_lexer_offset(lx) == at->offset + 1 && lx->line == at->line && lx->col == 2 &&
	       lx->c > 0 && lx->c < 0x80 && lx->clen == 1 && lx->bad_run == BAD_NONE &&
	       lx->known && !lx->skipping && !lx->ioerr &&
	       /* the line's and the game's accounting */
	       lx->line_bytes == 2 && !lx->line_reported && !lx->line_clean &&
	       lx->game_bytes == at->game_bytes + 2 && !lx->game_over && lx->nerrors == 0 &&
	       !lx->gave_up &&
	       /* nothing carried to the next token */
	       lx->tokens_on_line == 1 && !lx->attach && !lx->cut_at_game && !lx->pending;
}

void hg_lexer_close(hg_lexer *lx)
{
	if (!lx)
		return;
	if (lx->fp && lx->owned)
		fclose(lx->fp);
	free(lx->win);
	free(lx->name);
	hg_buf_free(&lx->buf);
	free(lx);
}

void hg_lexer_set_plain_ssse3(hg_lexer *lx, int on)
{
	lx->run_ssse3 = on && run_ssse3_here();
}

void hg_lexer_set_careful_only(hg_lexer *lx, int on)
{
	lx->careful_only = on;
}

void hg_lexer_set_limits(hg_lexer *lx, const hg_limits *l)
{
	lx->lim = *l;
}

const hg_limits *hg_lexer_limits(const hg_lexer *lx)
{
	return &lx->lim;
}

const char *hg_lexer_name(const hg_lexer *lx)
{
	return lx->name;
}

void hg_lexer_set_diags(hg_lexer *lx, hg_diags *d)
{
	lx->d = d;
}

void hg_lexer_set_origin(hg_lexer *lx, hg_pos pos)
{
	lx->origin = pos;
	lx->origin.file = pos.file ? lx->name : NULL;
	if (pos.line == 0) {
		lx->known = 0;
	} else {
		lx->line = pos.line;
		lx->col = pos.col ? pos.col : 1;
	}
}

uint64_t hg_lexer_offset(const hg_lexer *lx)
{
	return lx->base_off + (uint64_t)(lx->p - lx->base);
}

int hg_lexer_io_error(const hg_lexer *lx, int *err)
{
	if (err)
		*err = lx->err;
	return lx->ioerr;
}

/* ------------------------------------------------------------------------
 * Diagnostics
 * ------------------------------------------------------------------------ */

static hg_pos here(const hg_lexer *lx)
{
	if (!lx->known)
		return lx->origin;
	hg_pos pos = { lx->name, lx->line, lx->col };
	return pos;
}

static hg_diag *lex_verror(hg_lexer *lx, hg_pos pos, const char *code,
			   const char *fmt, va_list ap)
{
	if (!lx->d || lx->skipping || lx->gave_up)
		return NULL;
	if (lx->nerrors >= lx->lim.errors) {
		lx->gave_up = 1;
		hg_diag *dg = hg_diag_add(lx->d, HG_ERROR, pos, "hgn.too-many-errors",
					  "too many errors in this game (%zu); skipping to the next game",
					  lx->lim.errors);
		hg_diag_note(dg, "the next game starts at a line beginning with '['");
		return NULL;
	}
	lx->nerrors++;
	return hg_diag_vadd(lx->d, HG_ERROR, pos, code, fmt, ap);
}

hg_diag *hg_lexer_error(hg_lexer *lx, hg_pos pos, const char *code,
			const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag *dg = lex_verror(lx, pos, code, fmt, ap);
	va_end(ap);
	return dg;
}

hg_diag *hg_lexer_warning(hg_lexer *lx, hg_pos pos, const char *code,
			  const char *fmt, ...)
{
	if (!lx->d || lx->skipping || lx->gave_up)
		return NULL;
	va_list ap;
	va_start(ap, fmt);
	hg_diag *dg = hg_diag_vadd(lx->d, HG_WARNING, pos, code, fmt, ap);
	va_end(ap);
	return dg;
}

static hg_diag *lex_error(hg_lexer *lx, hg_pos pos, const char *code,
			  const char *fmt, ...) HG_PRINTF(4, 5);

static hg_diag *lex_error(hg_lexer *lx, hg_pos pos, const char *code,
			  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag *dg = lex_verror(lx, pos, code, fmt, ap);
	va_end(ap);
	return dg;
}

void hg_lexer_begin_game(hg_lexer *lx)
{
	lx->game_bytes = 0;
	lx->game_over = 0;
	lx->nerrors = 0;
	lx->gave_up = 0;
	/* Latin-1 is found, and said, game by game: a file read from a resume
	 * point (check -j) reads each game as the whole reading does. */
	lx->seen_utf8 = 0;
	lx->latin1 = 0;
}

int hg_lexer_game_abandoned(const hg_lexer *lx)
{
	return lx->game_over || lx->gave_up;
}

/* ------------------------------------------------------------------------
 * Character classes (grammar/hgn.ebnf, Part 0)
 * ------------------------------------------------------------------------ */

enum { C_WORD = 1, C_PUNCT = 2, C_SPACE = 4, C_DIGIT = 8 };

/* Classes of the ASCII characters (hgn.ebnf, Part 0 and punctuation);
 * bytes from 0x80 up have none here, so a scan over ASCII needs no other
 * test to stop at them. */
static const unsigned char ascii_class[256] = {
	['\t'] = C_SPACE, ['\r'] = C_SPACE, [' '] = C_SPACE,
	['_'] = C_WORD, ['-'] = C_WORD, ['\''] = C_WORD, ['.'] = C_WORD, ['#'] = C_WORD,
	['0'] = C_WORD | C_DIGIT, ['1'] = C_WORD | C_DIGIT, ['2'] = C_WORD | C_DIGIT,
	['3'] = C_WORD | C_DIGIT, ['4'] = C_WORD | C_DIGIT, ['5'] = C_WORD | C_DIGIT,
	['6'] = C_WORD | C_DIGIT, ['7'] = C_WORD | C_DIGIT, ['8'] = C_WORD | C_DIGIT,
	['9'] = C_WORD | C_DIGIT,
	['A'] = C_WORD, ['B'] = C_WORD, ['C'] = C_WORD, ['D'] = C_WORD, ['E'] = C_WORD,
	['F'] = C_WORD, ['G'] = C_WORD, ['H'] = C_WORD, ['I'] = C_WORD, ['J'] = C_WORD,
	['K'] = C_WORD, ['L'] = C_WORD, ['M'] = C_WORD, ['N'] = C_WORD, ['O'] = C_WORD,
	['P'] = C_WORD, ['Q'] = C_WORD, ['R'] = C_WORD, ['S'] = C_WORD, ['T'] = C_WORD,
	['U'] = C_WORD, ['V'] = C_WORD, ['W'] = C_WORD, ['X'] = C_WORD, ['Y'] = C_WORD,
	['Z'] = C_WORD,
	['a'] = C_WORD, ['b'] = C_WORD, ['c'] = C_WORD, ['d'] = C_WORD, ['e'] = C_WORD,
	['f'] = C_WORD, ['g'] = C_WORD, ['h'] = C_WORD, ['i'] = C_WORD, ['j'] = C_WORD,
	['k'] = C_WORD, ['l'] = C_WORD, ['m'] = C_WORD, ['n'] = C_WORD, ['o'] = C_WORD,
	['p'] = C_WORD, ['q'] = C_WORD, ['r'] = C_WORD, ['s'] = C_WORD, ['t'] = C_WORD,
	['u'] = C_WORD, ['v'] = C_WORD, ['w'] = C_WORD, ['x'] = C_WORD, ['y'] = C_WORD,
	['z'] = C_WORD,
	[','] = C_PUNCT, ['/'] = C_PUNCT, ['+'] = C_PUNCT, ['='] = C_PUNCT, ['>'] = C_PUNCT,
	['<'] = C_PUNCT, ['@'] = C_PUNCT, ['&'] = C_PUNCT, ['|'] = C_PUNCT, ['~'] = C_PUNCT,
	['^'] = C_PUNCT, ['%'] = C_PUNCT,
};

static int is_nonascii_space(long c)
{
	return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
	       c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

static inline int is_space(long c)
{
	if (c < 0x80)
		return c >= 0 && (ascii_class[c] & C_SPACE);
	return is_nonascii_space(c);
}

static int is_control(long c)
{
	return c >= 0 && hg_is_control((uint32_t)c);
}

static inline int is_digit(long c)
{
	return c >= '0' && c <= '9';
}

static inline int is_word_char(long c)
{
	if (c < 0x80)
		return c >= 0 && (ascii_class[c] & C_WORD);
	return !is_nonascii_space(c) && !is_control(c);
}

static inline int is_punct(long c)
{
	return c >= 0 && c < 0x80 && (ascii_class[c] & C_PUNCT);
}

/* ------------------------------------------------------------------------
 * Reading characters
 * ------------------------------------------------------------------------ */

/* Keeps at least four bytes (one whole code point) ahead when the stream
 * still has them. */
static void refill(hg_lexer *lx)
{
	while (!lx->at_eof && lx->end - lx->p < 4) {
		size_t left = (size_t)(lx->end - lx->p);
		lx->base_off += (uint64_t)(lx->p - lx->win);
		memmove(lx->win, lx->p, left);
		size_t n = fread(lx->win + left, 1, WINDOW - left, lx->fp);
		lx->p = lx->win;
		lx->end = lx->win + left + n;
		if (n == 0) {
			lx->at_eof = 1;
			if (ferror(lx->fp)) {
				lx->ioerr = 1;
				lx->err = errno;
			}
		}
	}
}

static void bad_char(hg_lexer *lx, int kind, unsigned byte)
{
	if (lx->bad_run != kind) {
		if (kind == BAD_NUL)
			lex_error(lx, here(lx), "hgn.nul-byte", "NUL byte in the text");
		else
			lex_error(lx, here(lx), "hgn.invalid-utf8",
				  "invalid UTF-8 (byte 0x%02x)", byte);
	}
	lx->bad_run = kind;
	lx->c = BADBYTE;
	lx->clen = 1;
}

/* A byte that is not UTF-8 but a letter or sign of Latin-1 text (or the
 * quotes, dashes and euro of Windows-1252), followed by ASCII: how an
 * accent of a file from a Spanish system looks, unlike binary junk (nor
 * the end of a broken UTF-8 sequence). */
static int latin1_like(const hg_lexer *lx, unsigned b)
{
	if (lx->seen_utf8 || lx->bad_run != BAD_NONE || lx->end - lx->p < 2 ||
	    lx->p[1] >= 0x80)
		return 0;
	return b >= 0xA0 || b == 0x80 || (b >= 0x91 && b <= 0x97);
}

/* The code point of a byte of Windows-1252 (Latin-1 but for 0x80-0x9F). */
static long cp1252(unsigned b)
{
	static const unsigned short c1[32] = {
		0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
		0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
		0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
		0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
	};
	return b >= 0x80 && b < 0xA0 ? (long)c1[b - 0x80] : (long)b;
}

/* The game is Latin-1 or Windows-1252: one error with the conversion
 * that mends it, instead of one error for every accent; the rest of the
 * game is read as Windows-1252. */
static void latin1_char(hg_lexer *lx, unsigned b)
{
	if (!lx->latin1) {
		lx->latin1 = 1;
		hg_diag *dg = lex_error(lx, here(lx), "hgn.invalid-utf8",
					"invalid UTF-8 (byte 0x%02x): the input looks like Latin-1 "
					"(or Windows-1252)", b);
		if (dg)
			hg_diag_note(dg, "HGN is UTF-8; convert the file first, as with "
				     "'iconv -f LATIN1 -t UTF-8' (or -f WINDOWS-1252)");
	}
	lx->c = cp1252(b);
	lx->clen = 1;
	lx->bad_run = BAD_NONE;
}

/* Decodes the character at p into c (without consuming it). */
static void decode(hg_lexer *lx)
{
	if (lx->end - lx->p < 4 && !lx->at_eof)
		refill(lx);
	if (lx->p >= lx->end) {
		lx->c = EOZ;
		lx->clen = 0;
		lx->bad_run = BAD_NONE;
		return;
	}
	unsigned b = lx->p[0];
	if (b >= 1 && b < 0x80) {
		lx->c = (long)b;
		lx->clen = 1;
		lx->bad_run = BAD_NONE;
		return;
	}
	if (b == 0) {
		bad_char(lx, BAD_NUL, 0);
		return;
	}
	uint32_t cp;
	int n = hg_utf8_decode((const char *)lx->p, (size_t)(lx->end - lx->p), &cp);
	if (n < 0) {
		if (lx->latin1 || latin1_like(lx, b))
			latin1_char(lx, b);
		else
			bad_char(lx, BAD_UTF8, b);
		return;
	}
	lx->seen_utf8 = 1;
	lx->c = (long)cp;
	lx->clen = n;
	lx->bad_run = BAD_NONE;
}

/* Counts the current character against the line and game limits. */
static void account(hg_lexer *lx)
{
	lx->line_bytes += (size_t)lx->clen;
	lx->game_bytes += (size_t)lx->clen;
	if (lx->skipping)
		return;
	if (lx->line_bytes > lx->lim.line && lx->c != '\n' && !lx->line_reported) {
		lx->line_reported = 1;
		lex_error(lx, here(lx), "hgn.line-too-long",
			  "line longer than %zu bytes", lx->lim.line);
	}
	if (lx->game_bytes > lx->lim.game && !lx->game_over) {
		lx->game_over = 1;
		hg_diag *dg = lex_error(lx, here(lx), "hgn.game-too-long",
					"game longer than %zu bytes; skipping to the next game",
					lx->lim.game);
		if (dg)
			hg_diag_note(dg, "the next game starts at a line beginning with '['");
	}
}

/* Moves past the current character.  Most characters are ASCII with the
 * window well filled: that path is kept short. */
static inline void next(hg_lexer *lx)
{
	if (lx->c == '\n') {
		lx->line++;
		lx->col = 1;
		lx->line_bytes = 0;
		lx->line_reported = 0;
		lx->line_clean = 1;
		lx->tokens_on_line = 0;
	} else {
		lx->col++;
		if (!is_space(lx->c))
			lx->line_clean = 0;
	}
	lx->p += lx->clen;
	if (lx->end - lx->p >= 4 && lx->p[0] >= 1 && lx->p[0] < 0x80) {
		lx->c = lx->p[0];
		lx->clen = 1;
		lx->bad_run = BAD_NONE;
		lx->line_bytes++;
		lx->game_bytes++;
		if (lx->line_bytes <= lx->lim.line && lx->game_bytes <= lx->lim.game)
			return;
		lx->line_bytes--;
		lx->game_bytes--;
		account(lx);
		return;
	}
	decode(lx);
	account(lx);
}

/* A UTF-16 or UTF-32 file (a byte order mark, or the NUL bytes of ASCII
 * text in such a file) would give an error for every other byte: one error
 * says what it is, and the input is taken as ending there. */
static int wrong_encoding(hg_lexer *lx)
{
	if (lx->end - lx->p < 4 && !lx->at_eof)
		refill(lx);
	size_t n = (size_t)(lx->end - lx->p);
	const unsigned char *b = lx->p;
	const char *what = NULL;
	if (n >= 4 && ((b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0) ||
		       (b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF)))
		what = _("UTF-32 (it begins with a UTF-32 byte order mark)");
	else if (n >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF)))
		what = _("UTF-16 (it begins with a UTF-16 byte order mark)");
	else if (n >= 4 && b[0] && !b[1] && b[2] && !b[3] && b[0] < 0x80 && b[2] < 0x80)
		what = _("UTF-16 (every other byte is a NUL)");
	if (!what)
		return 0;
	hg_diag *dg = lex_error(lx, here(lx), "hgn.invalid-utf8",
				"invalid UTF-8 (byte 0x%02x): the input is %s", b[0], what);
	if (dg)
		hg_diag_note(dg, "HGN is UTF-8; convert the file first, as with 'iconv -f UTF-16 -t UTF-8'");
	/* Nothing more is read. */
	lx->p = lx->end;
	lx->at_eof = 1;
	return 1;
}

static void start(hg_lexer *lx)
{
	lx->started = 1;
	if (lx->resumed) {	/* a byte order mark only begins the file */
		decode(lx);
		account(lx);
		return;
	}
	if (wrong_encoding(lx)) {
		lx->c = EOZ;
		lx->clen = 0;
		return;
	}
	decode(lx);
	if (lx->c == 0xFEFF) {	/* a byte order mark: not a character */
		lx->p += lx->clen;
		decode(lx);
	}
	account(lx);
}

/* The byte after the current character, or -1. */
static int peek_byte(hg_lexer *lx)
{
	const unsigned char *q = lx->p + lx->clen;
	return q < lx->end ? *q : -1;
}

/* ------------------------------------------------------------------------
 * Token text
 * ------------------------------------------------------------------------ */

/* Appends the current character (U+FFFD for a bad byte) to the token, up to
 * the token limit, reported once at the token's start. */
static void save_slow(hg_lexer *lx)
{
	size_t n = lx->c < 0x80 ? 1 : lx->c < 0x800 ? 2 : lx->c < 0x10000 ? 3 : 4;
	if (lx->c == BADBYTE)
		n = 3;
	if (lx->buf.len + n > lx->lim.token) {
		if (!lx->tok.bad)
			lex_error(lx, lx->tok.pos, "hgn.too-long",
				  "%s longer than %zu bytes", hg_tk_name(lx->tok.kind),
				  lx->lim.token);
		lx->tok.bad = 1;
		return;
	}
	if (lx->c >= 0 && lx->c < 0x80)
		hg_buf_putc(&lx->buf, (char)lx->c);
	else
		hg_utf8_put(&lx->buf, lx->c == BADBYTE ? 0xFFFD : (uint32_t)lx->c);
}

/* The token's text so far, NUL-terminated (save() leaves room for it). */
static const char *buf_str(hg_lexer *lx)
{
	if (!lx->buf.data)
		return "";
	lx->buf.data[lx->buf.len] = '\0';
	return lx->buf.data;
}

/* The token's text is NUL-terminated only when the token is complete. */
static inline void save(hg_lexer *lx)
{
	if (lx->c >= 0 && lx->c < 0x80 && lx->buf.len + 2 <= lx->buf.cap &&
	    lx->buf.len < lx->lim.token)
		lx->buf.data[lx->buf.len++] = (char)lx->c;
	else
		save_slow(lx);
}

static void save_next(hg_lexer *lx)
{
	save(lx);
	next(lx);
}

/* Describes the current character for a message. */
static void describe_char(hg_lexer *lx, hg_buf *out)
{
	if (lx->c == BADBYTE)
		hg_buf_puts(out, "an invalid byte");
	else if (lx->c < 0x20 || lx->c == 0x7F || (lx->c >= 0x80 && lx->c <= 0x9F))
		hg_buf_printf(out, "control character U+%04lX", (unsigned long)lx->c);
	else {
		hg_buf_puts(out, "'");
		hg_utf8_put(out, (uint32_t)lx->c);
		hg_buf_puts(out, "'");
	}
}

/* ------------------------------------------------------------------------
 * Tokens
 * ------------------------------------------------------------------------ */

/* Words, numbers, move numbers and seat prefixes (hgn.ebnf: word, number,
 * move number, seat prefix). */
static hg_tk read_word(hg_lexer *lx)
{
	int digits_only = 1;
	if (is_digit(lx->c)) {
		while (is_digit(lx->c))
			save_next(lx);
		if (lx->c == '.') {
			size_t ndigits = lx->buf.len;
			while (lx->c == '.')
				save_next(lx);
			if (!is_digit(lx->c)) {
				/* a move number: "12." or "12..." */
				unsigned long v = 0;
				int big = ndigits > 10;
				for (size_t i = 0; i < ndigits && !big; i++) {
					v = v * 10 + (unsigned long)(lx->buf.data[i] - '0');
					if (v > UINT_MAX)
						big = 1;
				}
				if (big && !lx->tok.bad) {
					lex_error(lx, lx->tok.pos, "hgn.bad-move-number",
						  "move number '%.*s.' is too large",
						  (int)(ndigits > 20 ? 20 : ndigits), lx->buf.data);
					lx->tok.bad = 1;
				}
				lx->buf.len = ndigits;
				lx->buf.data[ndigits] = '\0';
				lx->tok.value = big ? 0 : v;
				return HG_TK_MOVENUM;
			}
			digits_only = 0;
		}
	}
	while (is_word_char(lx->c)) {
		if (!is_digit(lx->c))
			digits_only = 0;
		save_next(lx);
	}
	if (lx->c == ':') {
		next(lx);
		return HG_TK_SEAT;
	}
	lx->attach = 1;
	return digits_only ? HG_TK_NUMBER : HG_TK_WORD;
}

/* The window's last byte the plain path may step onto: next() keeps four
 * bytes (one whole code point) ahead of the current character while the
 * stream has more. */
static inline const unsigned char *plain_limit(const hg_lexer *lx)
{
	return lx->at_eof ? lx->end : lx->end - 4;
}

/* The end of the run of a string's plain characters from q (printable
 * ASCII but '"' and '\\', which end or escape), before lim. */
static inline const unsigned char *string_plain_end(const unsigned char *q,
						    const unsigned char *lim)
{
#ifdef __SSE2__
	/* 16 bytes at a time: as signed bytes, those from 0x80 up are below
	 * 0x20 too */
	while (lim - q >= 16) {
		const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
		const __m128i stop = _mm_or_si128(
			_mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
				     _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f))),
			_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
				     _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
		unsigned m = (unsigned)_mm_movemask_epi8(stop);
		if (m)
			return q + __builtin_ctz(m);
		q += 16;
	}
#endif
	while (q < lim && *q >= 0x20 && *q <= 0x7E && *q != '"' && *q != '\\')
		q++;
	return q;
}

/* The end of the plain string whose '"' is at t (past its closing '"'),
 * or NULL where an escape or a line's end comes first: for read_string(). */
static inline const unsigned char *plain_string(const unsigned char *t,
						const unsigned char *lim)
{
	const unsigned char *r = string_plain_end(t + 1, lim);
	return r < lim && *r == '"' ? r + 1 : NULL;
}

/* Inside a string, the run of plain characters from the current one,
 * taken at once but for its last character, which save_next() takes as
 * it takes any.  Nothing is taken where a character needs a look of its
 * own: near the window's end, or where a limit is reached.  The scan
 * stops where a count would pass its limit, so it never reads further
 * than it takes: a string far over the token limit costs what a comment
 * does.  Past the token limit (reported), the run is passed over unsaved. */
static int string_run(hg_lexer *lx)
{
	if (lx->careful_only || lx->clen != 1 || lx->c < 0x20 || lx->c > 0x7E)
		return 0;
	int keep = lx->buf.len < lx->lim.token;
	if (!keep && !lx->tok.bad)
		return 0;	/* save_next() reports the limit */
	size_t room = 0;
	if (lx->line_bytes < lx->lim.line && lx->game_bytes < lx->lim.game) {
		room = lx->lim.line - lx->line_bytes;
		if (lx->lim.game - lx->game_bytes < room)
			room = lx->lim.game - lx->game_bytes;
		if (keep && lx->lim.token - lx->buf.len < room)
			room = lx->lim.token - lx->buf.len;
	}
	const unsigned char *q = lx->p, *lim = plain_limit(lx);
	if (lim > q && (size_t)(lim - q) > room)
		lim = q + room;
	const unsigned char *r = string_plain_end(q, lim);
	size_t n = (size_t)(r - q);
	if (n < 2)
		return 0;
	size_t steps = n - 1;
	if (keep)
		hg_buf_putn(&lx->buf, (const char *)q, steps);
	lx->p = q + steps;
	lx->c = *lx->p;
	lx->col += (unsigned)steps;
	lx->line_bytes += steps;
	lx->game_bytes += steps;
	lx->line_clean = 0;	/* a string is never blank */
	return 1;
}

/* A control character inside a comment or a string: an error (once per
 * token), and then read as a blank, so it is never kept or written. */
static void control_in_text(hg_lexer *lx)
{
	if (!lx->control_seen) {
		lex_error(lx, here(lx), "hgn.unexpected-char", "control character U+%04lX in a %s",
			  (unsigned long)lx->c, hg_tk_name(lx->tok.kind));
		lx->control_seen = 1;
		lx->tok.bad = 1;
	}
	lx->c = ' ';
}

/* A string (hgn.ebnf: string): no line feed inside, escapes \" and \\. */
static void read_string(hg_lexer *lx)
{
	next(lx);
	for (;;) {
		if (string_run(lx))
			save_next(lx);
		switch (lx->c) {
		case '"':
			next(lx);
			return;
		case '\n':
		case EOZ:
			lex_error(lx, lx->tok.pos, "hgn.unterminated-string",
				  "string not closed before the end of the line");
			lx->tok.bad = 1;
			return;
		case '\\': {
			hg_pos at = here(lx);
			next(lx);
			if (lx->c == '"' || lx->c == '\\') {
				save_next(lx);
				break;
			}
			if (lx->c == '\n' || lx->c == EOZ) {
				lex_error(lx, at, "hgn.bad-escape",
					  "'\\' at the end of a line escapes nothing");
				lx->tok.bad = 1;
				break;
			}
			hg_buf msg;
			hg_buf_init(&msg);
			describe_char(lx, &msg);
			hg_diag *dg = lex_error(lx, at, "hgn.bad-escape",
						"unknown escape '\\' before %s", msg.data);
			if (dg)
				hg_diag_note(dg, "the only escapes are \\\" and \\\\");
			hg_buf_free(&msg);
			lx->tok.bad = 1;
			hg_buf_putc(&lx->buf, '\\');
			save_next(lx);
			break;
		}
		default:
			if (is_control(lx->c))
				control_in_text(lx);
			save_next(lx);
			break;
		}
	}
}

/* A brace comment (hgn.ebnf: brace comment).  It may not run into the next
 * game: a line starting with '[' after a blank line ends it, unterminated. */
static void read_brace_comment(hg_lexer *lx)
{
	int line_has_text = 1, prev_blank = 0;
	next(lx);
	for (;;) {
		switch (lx->c) {
		case '}':
			next(lx);
			return;
		case EOZ:
			lex_error(lx, lx->tok.pos, "hgn.unterminated-comment",
				  "comment not closed: '{' without '}'");
			lx->tok.bad = 1;
			return;
		case '\n':
			prev_blank = !line_has_text;
			line_has_text = 0;
			save_next(lx);
			break;
		case '\r':
			if (peek_byte(lx) == '\n')
				next(lx);	/* CR LF is a line end */
			else
				save_next(lx);
			break;
		case ' ':
		case '\t':
			save_next(lx);
			break;
		case '[':
			if (!line_has_text && prev_blank) {
				hg_diag *dg = lex_error(lx, lx->tok.pos, "hgn.unterminated-comment",
							"comment not closed before the next game: '{' without '}'");
				if (dg)
					hg_diag_note(dg, "a line beginning with '[' after a blank line starts a game");
				lx->tok.bad = 1;
				lx->cut_at_game = 1;
				return;
			}
			/* fall through */
		default:
			if (is_control(lx->c)) {
				control_in_text(lx);
				save_next(lx);
				break;
			}
			line_has_text = 1;
			save_next(lx);
			break;
		}
	}
}

/* A line comment (hgn.ebnf: line comment): its text trimmed. */
static void read_line_comment(hg_lexer *lx)
{
	next(lx);
	for (;;) {
		if (is_control(lx->c))
			control_in_text(lx);
		if (lx->c != ' ' && lx->c != '\t' && lx->c != '\r')
			break;
		next(lx);
	}
	while (lx->c != '\n' && lx->c != EOZ) {
		if (is_control(lx->c))
			control_in_text(lx);
		save_next(lx);
	}
	while (lx->buf.len > 0) {
		char ch = lx->buf.data[lx->buf.len - 1];
		if (ch != ' ' && ch != '\t' && ch != '\r')
			break;
		lx->buf.data[--lx->buf.len] = '\0';
	}
}

/* A NAG (hgn.ebnf: nag).  Returns 0 after reporting a malformed one. */
static int read_nag(hg_lexer *lx)
{
	unsigned long v = 0;
	int ndigits = 0, extra = 0;
	save_next(lx);
	while (is_digit(lx->c)) {
		if (v <= 255)
			v = v * 10 + (unsigned long)(lx->c - '0');
		ndigits++;
		save_next(lx);
	}
	while (is_word_char(lx->c)) {
		extra = 1;
		save_next(lx);
	}
	if (ndigits == 0 || extra) {
		hg_diag *dg = lex_error(lx, lx->tok.pos, "hgn.bad-nag",
					"'%s' is not a NAG", buf_str(lx));
		if (dg)
			hg_diag_note(dg, "a NAG is '$' followed by a number from 0 to 255, as in '$1'");
		return 0;
	}
	if (v > 255) {
		lex_error(lx, lx->tok.pos, "hgn.bad-nag",
			  "NAG '%s' is out of range (0 to 255)", buf_str(lx));
		return 0;
	}
	lx->tok.value = v;
	return 1;
}

static int is_glyph(const char *s)
{
	static const char *const glyphs[] = { "!", "?", "!!", "??", "!?", "?!" };
	for (size_t i = 0; i < HG_ARRAY_LEN(glyphs); i++)
		if (strcmp(s, glyphs[i]) == 0)
			return 1;
	return 0;
}

/* An annotation glyph (hgn.ebnf: glyph).  Returns 0 after reporting one
 * that is unknown or attached to nothing. */
static int read_glyph(hg_lexer *lx, int attached)
{
	while (lx->c == '!' || lx->c == '?')
		save_next(lx);
	if (!attached) {
		hg_diag *dg = lex_error(lx, lx->tok.pos, "hgn.detached-glyph",
					"annotation glyph '%s' is not attached to an action",
					buf_str(lx));
		if (dg)
			hg_diag_note(dg, "write the glyph right after the action's last token, as in 'P1: place c07 1!'");
		return 0;
	}
	if (!is_glyph(buf_str(lx))) {
		hg_diag *dg = lex_error(lx, lx->tok.pos, "hgn.bad-glyph",
					"unknown annotation glyph '%s'", buf_str(lx));
		if (dg)
			hg_diag_note(dg, "the glyphs are ! ? !! ?? !? ?!");
		return 0;
	}
	return 1;
}

static void unexpected_char(hg_lexer *lx)
{
	hg_buf msg;
	hg_buf_init(&msg);
	describe_char(lx, &msg);
	hg_diag *dg = lex_error(lx, here(lx), "hgn.unexpected-char",
				"unexpected %s", msg.data);
	if (dg && lx->c == '}')
		hg_diag_note(dg, "a comment starts with '{'");
	hg_buf_free(&msg);
	next(lx);
}

static const char *const single_text[] = {
	[HG_TK_LBRACKET] = "[", [HG_TK_RBRACKET] = "]", [HG_TK_LPAREN] = "(",
	[HG_TK_RPAREN] = ")", [HG_TK_STAR] = "*", [HG_TK_COLON] = ":",
};

static hg_tk single(hg_lexer *lx, hg_tk kind)
{
	hg_buf_puts(&lx->buf, single_text[kind]);
	next(lx);
	return kind;
}

/* Skips white space (and what was already reported); returns the token. */
static hg_tk lex(hg_lexer *lx)
{
	int attached = lx->attach;
	int saw_lf = 0, clean = 0;	/* for blank lines: a LF, then only spaces */
	lx->attach = 0;
	/* After a comment cut short at the next game, the '[' begins its line
	 * after a blank line, though both lie inside the comment's text. */
	lx->tok.blank_line = lx->cut_at_game;
	if (lx->cut_at_game)
		lx->tokens_on_line = 0;
	lx->cut_at_game = 0;
	for (;;) {
		while (lx->c == ' ' || lx->c == '\t' || lx->c == '\r') {
			attached = 0;
			next(lx);
		}
		lx->buf.len = 0;
		lx->tok.pos = here(lx);
		lx->tok.off = hg_lexer_offset(lx);
		lx->tok.bad = 0;
		lx->control_seen = 0;
		lx->tok.value = 0;
		lx->tok.newline = lx->tokens_on_line == 0;
		switch (lx->c) {
		case '\n':
			if (saw_lf && clean)
				lx->tok.blank_line = 1;
			saw_lf = clean = 1;
			attached = 0;
			next(lx);
			continue;
		case ' ':
		case '\t':
		case '\r':
			attached = 0;
			next(lx);
			continue;
		case BADBYTE:
			attached = clean = 0;
			next(lx);
			continue;
		case EOZ:
			return HG_TK_EOF;
		case '[': return single(lx, HG_TK_LBRACKET);
		case ']': return single(lx, HG_TK_RBRACKET);
		case '(': return single(lx, HG_TK_LPAREN);
		case ')': return single(lx, HG_TK_RPAREN);
		case '*': return single(lx, HG_TK_STAR);
		case ':': return single(lx, HG_TK_COLON);
		case '"':
			lx->tok.kind = HG_TK_STRING;
			read_string(lx);
			return HG_TK_STRING;
		case '{':
			lx->tok.kind = HG_TK_COMMENT;
			read_brace_comment(lx);
			return HG_TK_COMMENT;
		case ';':
			lx->tok.kind = HG_TK_LINE_COMMENT;
			read_line_comment(lx);
			return HG_TK_LINE_COMMENT;
		case '$':
			lx->tok.kind = HG_TK_NAG;
			if (read_nag(lx))
				return HG_TK_NAG;
			attached = clean = 0;
			continue;
		case '!':
		case '?':
			lx->tok.kind = HG_TK_GLYPH;
			if (lx->c == '?' && !attached) {
				save_next(lx);
				lx->attach = 1;
				return HG_TK_HIDDEN;
			}
			if (read_glyph(lx, attached))
				return HG_TK_GLYPH;
			if (attached) {
				/* an unknown glyph still ends its action */
				lx->tok.bad = 1;
				return HG_TK_GLYPH;
			}
			attached = clean = 0;
			continue;
		default:
			if (is_punct(lx->c)) {
				save_next(lx);
				lx->attach = 1;
				return HG_TK_PUNCT;
			}
			if (is_word_char(lx->c)) {
				lx->tok.kind = HG_TK_WORD;
				return read_word(lx);
			}
			if (is_nonascii_space(lx->c)) {
				attached = 0;
				next(lx);
				continue;
			}
			attached = clean = 0;
			unexpected_char(lx);
			continue;
		}
	}
}

/* ------------------------------------------------------------------------
 * The plain path: most of a record is ASCII words, numbers and single
 * blanks.  These functions read such text in one pass, keeping the
 * position in locals, and give up (changing nothing) wherever the careful
 * path above has something to say or to decode: a non-ASCII or NUL byte,
 * a blank line, the window's end, a limit.
 * ------------------------------------------------------------------------ */

/* Bytes a short token is copied by, in one fixed-size move (most tokens are
 * shorter; a call to memcpy for each cost more than the rest of the copy). */
#define SHORT_COPY 16

/* True when the plain path may start: the current character is plain
 * ASCII and positions are counted. */
static inline int plain_ready(const hg_lexer *lx)
{
	return lx->started && lx->known && !lx->cut_at_game && lx->clen == 1 &&
	       lx->c > 0 && lx->c < 0x80 && !lx->careful_only;
}

/* Skips the blanks from q (at most one line feed: a blank line is for
 * lex() to see), moving *at along.  Returns the first other character, or
 * NULL to give up. */
static inline const unsigned char *plain_blanks(const hg_lexer *lx, const unsigned char *q,
						const unsigned char *lim, plain_pos *at)
{
	/* The counts only grow along a line, so the limits are checked where a
	 * line ends and, by plain_fits(), after the token: in between, no
	 * count can be over its limit unless it is there too. */
	int lf = 0;
	for (; q < lim; q++) {
		if (*q == ' ' || *q == '\t' || *q == '\r') {
			at->line_bytes++;
		} else if (*q == '\n') {
			if (lf++ || at->line_bytes > lx->lim.line)
				return NULL;	/* a blank line, or a line too long */
			at->line++;
			at->col = 0;
			at->line_bytes = 1;
		} else {
			return q;
		}
		at->col++;
		at->game_bytes++;
	}
	return NULL;
}

#ifdef __SSE2__
/* The 16 bytes at p, classed at once: bit i of the result is set when byte
 * i is not a word character (ascii_class's C_WORD), and of *nondigit when
 * it is not a decimal digit.  A word's end is then found without a branch
 * per byte, whose last test (the word's end) the processor mostly
 * mispredicts.  Bytes from 0x80 up are negative as signed bytes: outside
 * every range below, so not word characters, as in ascii_class. */
/* The ASCII letters and the decimal digits among the 16 bytes x (0xff a
 * byte where it is one).  Bytes from 0x80 up are negative as signed
 * bytes: outside both ranges. */
static inline __m128i letters16(__m128i x)
{
	const __m128i low = _mm_or_si128(x, _mm_set1_epi8(0x20));	/* 'A'-'Z' -> 'a'-'z' */
	return _mm_and_si128(_mm_cmpgt_epi8(low, _mm_set1_epi8('a' - 1)),
			     _mm_cmpgt_epi8(_mm_set1_epi8('z' + 1), low));
}

static inline __m128i digits16(__m128i x)
{
	return _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
			     _mm_cmpgt_epi8(_mm_set1_epi8('9' + 1), x));
}

static inline unsigned word_stops16(const unsigned char *p, unsigned *nondigit)
{
	const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i digit = digits16(x);
	__m128i mark = _mm_or_si128(
		_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('_')), _mm_cmpeq_epi8(x, _mm_set1_epi8('-'))),
		_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\'')),
					  _mm_cmpeq_epi8(x, _mm_set1_epi8('.'))),
			     _mm_cmpeq_epi8(x, _mm_set1_epi8('#'))));
	__m128i word = _mm_or_si128(_mm_or_si128(letters16(x), digit), mark);
	*nondigit = ~(unsigned)_mm_movemask_epi8(digit) & 0xffffu;
	return ~(unsigned)_mm_movemask_epi8(word) & 0xffffu;
}
#endif

/* The end of the run of ASCII word characters from q (q itself is one),
 * and its kind: HG_TK_NUMBER for digits only, else HG_TK_WORD.  *dot is set
 * when the run is digits then a '.' (maybe a move number). */
static inline HG_ALWAYS_INLINE const unsigned char *
plain_word(const unsigned char *q, const unsigned char *lim, hg_tk *kind, int *dot)
{
#ifdef __SSE2__
	if (lim - q > 16) {
		unsigned nondigit, stops = word_stops16(q, &nondigit);
		if (stops) {	/* the word ends within these 16 bytes */
			unsigned w = (unsigned)__builtin_ctz(stops);
			*kind = HG_TK_WORD;
			*dot = 0;
			if (!(nondigit & 1)) {
				/* digits, up to the first other byte: the
				 * word's end, or a word character there */
				unsigned d = (unsigned)__builtin_ctz(nondigit | 0x10000u);
				if (d < w)
					*dot = q[d] == '.';
				else
					*kind = HG_TK_NUMBER;
			}
			return q + w;
		}
	}
#endif
	const unsigned char *r = q + 1;
	*kind = HG_TK_WORD;
	*dot = 0;
	if (ascii_class[*q] & C_DIGIT) {
		while (r < lim && *r >= '0' && *r <= '9')
			r++;
		*kind = HG_TK_NUMBER;
		if (r < lim && (ascii_class[*r] & C_WORD)) {
			*kind = HG_TK_WORD;
			*dot = *r == '.';
		}
	}
	while (r < lim && (ascii_class[*r] & C_WORD))
		r++;
	return r;
}

/* True when the token [t, r) may be taken and r made the current
 * character: r plain ASCII inside the window, everything within limits. */
static inline int plain_fits(const hg_lexer *lx, const unsigned char *t,
			     const unsigned char *r, const unsigned char *lim,
			     const plain_pos *at)
{
	size_t n = (size_t)(r - t);
	return r < lim && *r != 0 && *r < 0x80 && n <= lx->lim.token &&
	       at->line_bytes + n <= lx->lim.line && at->game_bytes + n <= lx->lim.game;
}

/* Makes r, `steps` characters after the token's start at *at, the current
 * character. */
static inline void plain_commit(hg_lexer *lx, const unsigned char *r, const plain_pos *at,
				size_t steps, unsigned on_line)
{
	if (at->line != lx->line)
		lx->line_reported = 0;
	lx->line = at->line;
	lx->col = at->col + (unsigned)steps;
	lx->line_bytes = at->line_bytes + steps;
	lx->game_bytes = at->game_bytes + steps;
	lx->tokens_on_line = on_line;
	lx->p = r;
	lx->c = *r;
	lx->clen = 1;
	lx->bad_run = BAD_NONE;
	lx->line_clean = 0;
}

/* The next token by the plain path: a word, number, move number or seat
 * prefix after plain blanks.  Returns NULL, having changed nothing, when
 * lex() must read it. */
static const hg_token *plain_emit(hg_lexer *lx, const unsigned char *t,
				  const unsigned char *r, const unsigned char *lim,
				  plain_pos at, hg_tk kind, int dot);

static const hg_token *plain_tag_token(hg_lexer *lx, const unsigned char *t,
				       const unsigned char *lim, plain_pos at);

/* Makes the token the plain path read (its text in lx->buf): of `kind`
 * and `value`, from t at `at`, taking `steps` characters. */
static const hg_token *plain_token(hg_lexer *lx, hg_tk kind, unsigned long value,
				   const unsigned char *t, plain_pos at, size_t steps)
{
	hg_token *tok = &lx->tok;
	tok->kind = kind;
	tok->pos.file = lx->name;
	tok->pos.line = at.line;
	tok->pos.col = at.col;
	tok->off = lx->base_off + (uint64_t)(t - lx->base);
	tok->bad = 0;
	tok->value = value;
	tok->blank_line = 0;
	unsigned on_line = at.line != lx->line ? 0 : lx->tokens_on_line;
	tok->newline = on_line == 0;
	plain_commit(lx, t + steps, &at, steps, on_line + 1);
	tok->end.file = lx->name;
	tok->end.line = lx->line;
	tok->end.col = lx->col;
	tok->text = lx->buf.data;
	tok->len = lx->buf.len;
	return tok;
}

static const hg_token *plain_next(hg_lexer *lx)
{
	const unsigned char *lim = plain_limit(lx);
	plain_pos at = { lx->line, lx->col, lx->line_bytes, lx->game_bytes };
	const unsigned char *t = plain_blanks(lx, lx->p, lim, &at);
	if (!t || *t >= 0x80)
		return NULL;
	if (*t == '[' || *t == ']' || *t == '"')
		return plain_tag_token(lx, t, lim, at);
	if (!(ascii_class[*t] & C_WORD))
		return NULL;
	hg_tk kind;
	int dot;
	const unsigned char *r = plain_word(t, lim, &kind, &dot);
	if (!plain_fits(lx, t, r, lim, &at))
		return NULL;
	return plain_emit(lx, t, r, lim, at, kind, dot);
}

/* Is the run [t, r) of digits and then dots (plain_word() said `dot`) a
 * move number ("12." or "12...")?  1 when no digit follows the dots, with
 * its digits, the steps to the dots' end (what follows is the next token)
 * and its value; 0 for a word ("1.5"); -1 for one of more than nine
 * digits, which read_word() reads (it says whether it is too large). */
static int plain_movenum(const unsigned char *t, const unsigned char *r, size_t *digits,
			 size_t *steps, unsigned long *value)
{
	size_t d = 0, e;
	while (ascii_class[t[d]] & C_DIGIT)
		d++;
	for (e = d; t + e < r && t[e] == '.'; e++)
		;
	if (t + e < r && (ascii_class[t[e]] & C_DIGIT))
		return 0;
	if (d > 9)
		return -1;
	unsigned long v = 0;
	for (size_t i = 0; i < d; i++)
		v = v * 10 + (unsigned long)(t[i] - '0');
	*digits = d;
	*steps = e;
	*value = v;
	return 1;
}

/* May the run of `steps` characters at `at`, which ends at r, and the ':'
 * at r be taken as a seat prefix?  The character after the ':' must be
 * plain, and the line and the game within their limits. */
static inline int plain_seat_fits(const hg_lexer *lx, const unsigned char *r,
				  const unsigned char *lim, const plain_pos *at, size_t steps)
{
	return r + 1 < lim && r[1] != 0 && r[1] < 0x80 &&
	       at->line_bytes + steps + 1 <= lx->lim.line &&
	       at->game_bytes + steps + 1 <= lx->lim.game;
}

/* Makes the run [t, r) of word characters at `at` (plain_word() said its
 * kind and dot; plain_fits() agreed) the current token: a word, number,
 * move number or seat prefix.  NULL, having changed nothing, when lex()
 * must read it after all. */
static const hg_token *plain_emit(hg_lexer *lx, const unsigned char *t,
				  const unsigned char *r, const unsigned char *lim,
				  plain_pos at, hg_tk kind, int dot)
{
	size_t len = (size_t)(r - t), steps = len;
	unsigned long value = 0;
	if (dot) {
		int m = plain_movenum(t, r, &len, &steps, &value);
		if (m < 0)
			return NULL;
		if (m > 0)
			kind = HG_TK_MOVENUM;
	}
	if (kind != HG_TK_MOVENUM && *r == ':') {
		/* a seat prefix: the ':' is left too */
		if (!plain_seat_fits(lx, r, lim, &at, steps))
			return NULL;
		kind = HG_TK_SEAT;
		steps++;
	}
	HG_GROW(lx->buf.data, lx->buf.cap, (len > SHORT_COPY ? len : SHORT_COPY) + 1);
	if (len <= SHORT_COPY && (size_t)(lx->end - t) >= SHORT_COPY)
		memcpy(lx->buf.data, t, SHORT_COPY);	/* the rest is overwritten */
	else
		memcpy(lx->buf.data, t, len);
	lx->buf.data[len] = '\0';
	lx->buf.len = len;
	lx->attach = kind == HG_TK_WORD || kind == HG_TK_NUMBER;
	return plain_token(lx, kind, value, t, at, steps);
}

/* A tag pair's '[', ']' or string by the plain path: a string of
 * printable ASCII without escapes, closed on its line.  As single() and
 * read_string() read them, but for the characters' one look each. */
static const hg_token *plain_tag_token(hg_lexer *lx, const unsigned char *t,
				       const unsigned char *lim, plain_pos at)
{
	const unsigned char *r = t + 1, *text = t;
	size_t len = 1;
	hg_tk kind = *t == '[' ? HG_TK_LBRACKET : *t == ']' ? HG_TK_RBRACKET : HG_TK_STRING;
	if (kind == HG_TK_STRING) {
		r = plain_string(t, lim);
		if (!r)
			return NULL;
		text = t + 1;
		len = (size_t)(r - text) - 1;
	}
	if (!plain_fits(lx, t, r, lim, &at))
		return NULL;
	size_t steps = (size_t)(r - t);
	HG_GROW(lx->buf.data, lx->buf.cap, len + 1);
	memcpy(lx->buf.data, text, len);
	lx->buf.data[len] = '\0';
	lx->buf.len = len;
	lx->attach = 0;
	return plain_token(lx, kind, 0, t, at, steps);
}

const hg_token *hg_lexer_next(hg_lexer *lx)
{
	if (!lx->started)
		start(lx);
	if (lx->pending) {
		/* scanned already, by hg_lexer_gather_body(): made here unless
		 * the plain path must leave it to lex() after all */
		lx->pending = 0;
		const unsigned char *lim = plain_limit(lx);
		if (plain_fits(lx, lx->ahead.t, lx->ahead.r, lim, &lx->ahead.at)) {
			const hg_token *t = plain_emit(lx, lx->ahead.t, lx->ahead.r, lim,
						       lx->ahead.at, lx->ahead.kind,
						       lx->ahead.dot);
			if (t)
				return t;
		}
	}
	if (plain_ready(lx)) {
		const hg_token *t = plain_next(lx);
		if (t)
			return t;
	}
	hg_tk kind = lex(lx);
	hg_token *t = &lx->tok;
	t->kind = kind;
	t->end = here(lx);
	if (lx->buf.data)
		lx->buf.data[lx->buf.len] = '\0';
	t->text = lx->buf.data ? lx->buf.data : "";
	t->len = lx->buf.len;
	if (kind != HG_TK_EOF)
		lx->tokens_on_line++;
	return t;
}

void hg_lexer_skip_game(hg_lexer *lx)
{
	if (!lx->started)
		start(lx);
	lx->skipping = 1;
	while (lx->c != EOZ && !(lx->c == '[' && lx->line_clean))
		next(lx);
	lx->skipping = 0;
	lx->attach = 0;
	lx->bad_run = BAD_NONE;
}

const char *hg_tk_name(hg_tk kind)
{
	switch (kind) {
	case HG_TK_EOF: return "end of input";
	case HG_TK_LBRACKET: return "'['";
	case HG_TK_RBRACKET: return "']'";
	case HG_TK_STRING: return "string";
	case HG_TK_MOVENUM: return "move number";
	case HG_TK_SEAT: return "seat prefix";
	case HG_TK_WORD: return "word";
	case HG_TK_NUMBER: return "number";
	case HG_TK_PUNCT: return "punctuation";
	case HG_TK_HIDDEN: return "'?'";
	case HG_TK_GLYPH: return "glyph";
	case HG_TK_NAG: return "NAG";
	case HG_TK_COMMENT: return "comment";
	case HG_TK_LINE_COMMENT: return "comment";
	case HG_TK_LPAREN: return "'('";
	case HG_TK_RPAREN: return "')'";
	case HG_TK_STAR: return "'*'";
	case HG_TK_COLON: return "':'";
	}
	return "token";
}

/* ------------------------------------------------------------------------
 * Action bodies cut out of their context
 * ------------------------------------------------------------------------ */

/* Makes the arena list's room a new block of the arena, for cap tokens
 * and tcap bytes of each text, and moves the action being gathered there
 * (at least that much room is asked for): the actions kept stay where
 * they are, in the old block, which is written no more (an arena frees
 * nothing before its record).  The action's tokens already gathered keep
 * their texts in the old block's split; their offsets are the action's
 * own, so they do not change. */
static void atok_arena_block(hg_atok_list *l, size_t cap, size_t tcap)
{
	if (cap > ((size_t)-1 - 2 * (size_t)tcap) / sizeof *l->v)
		hg_out_of_memory(cap);
	hg_atok *v = hg_arena_alloc(l->arena, cap * sizeof *v + 2 * tcap);
	char *joined = (char *)(v + cap), *split = joined + tcap;
	size_t n = l->n - l->first, len = l->text.len - l->text0;
	if (n)
		memcpy(v, l->v + l->first, n * sizeof *v);
	if (len) {
		memcpy(joined, l->text.data + l->text0, len);
		memcpy(split, l->split + l->text0, len);
	}
	/* the NUL after its last token, which a seat prefix ending the
	 * action finds there: room made ahead of a run of tokens that then
	 * took none moves the action without putting a token after it */
	if (len < tcap)
		joined[len] = split[len] = '\0';
	l->v = v;
	l->cap = cap;
	l->n = n;
	l->first = 0;
	l->text.data = joined;
	l->split = split;
	l->text.cap = tcap;
	l->text.len = len;
	l->text0 = 0;
}

/* Room in an arena list for `toks` more tokens and `more` more bytes of
 * text: where it lacks either, it goes on in a block as large as the
 * last, or larger if the action being gathered needs it (only that action
 * moves). */
static void atok_arena_room(hg_atok_list *l, size_t toks, size_t more)
{
	if (l->n + toks <= l->cap && more <= l->text.cap - l->text.len)
		return;
	atok_arena_block(l, hg_grown(l->cap, l->n - l->first + toks, sizeof *l->v),
			 hg_grown(l->text.cap, l->text.len - l->text0 + more, 2));
}

/* Room for `more` bytes after the list's twin texts. */
static void atok_text_room(hg_atok_list *l, size_t more)
{
	if (l->arena) {
		atok_arena_room(l, 0, more);
		return;
	}
	if (more <= l->text.cap - l->text.len)
		return;
	HG_GROW(l->text.data, l->text.cap, l->text.len + more);
	l->split = hg_xrealloc(l->split, l->text.cap);
}

void hg_atok_list_attach(hg_atok_list *l, struct hg_arena *a, size_t toks, size_t bytes)
{
	hg_atok_list_free(l);
	l->arena = a;
	atok_arena_block(l, toks, bytes);
}

/* Writes the n bytes at s (`end` the end of the readable bytes after
 * them) at offset `at` of a list's twin texts, after a blank or a NUL
 * unless they begin the action (at offset text0): *off is their offset in
 * the action's text; returns the offset of the NUL after them. */
static inline HG_ALWAYS_INLINE size_t twin_put(char *joined, char *split, size_t at, size_t text0,
					       const unsigned char *s, size_t n,
					       const unsigned char *end, size_t *off)
{
	/* the separator is written always (no branch), and overwritten
	 * where there is none */
	joined[at] = ' ';
	split[at] = '\0';
	at += at != text0;
	*off = at - text0;
	if (n <= SHORT_COPY && (size_t)(end - s) >= SHORT_COPY) {
		memcpy(joined + at, s, SHORT_COPY);	/* the rest is overwritten */
		memcpy(split + at, s, SHORT_COPY);
	} else {
		memcpy(joined + at, s, n);
		memcpy(split + at, s, n);
	}
	at += n;
	joined[at] = split[at] = '\0';
	return at;
}

/* Is there no room for one more token of tn bytes in a list of n tokens
 * (room for cap) and len bytes of text (room for tcap)?  A token takes a
 * separator, a SHORT_COPY move or its bytes, and a NUL. */
static inline int atok_full(size_t n, size_t cap, size_t len, size_t tcap, size_t tn)
{
	return n == cap || tcap - len < tn + SHORT_COPY + 2;
}

/* Room in the list for `toks` more tokens and `more` more bytes of text. */
static void atok_room_n(hg_atok_list *l, size_t toks, size_t more)
{
	if (l->arena) {
		atok_arena_room(l, toks, more);
		return;
	}
	HG_GROW(l->v, l->cap, l->n + toks);
	atok_text_room(l, more);
}

/* Room in the list for one more token of tn bytes. */
static void atok_room(hg_atok_list *l, size_t tn)
{
	atok_room_n(l, 1, tn + SHORT_COPY + 2);
}

/* Appends one token of `n` bytes at `s` (already classified) to the list;
 * `end` is the end of the readable bytes after s. */
static inline void atok_put(hg_atok_list *l, hg_atok_kind kind, hg_pos pos,
			    const unsigned char *s, size_t n, const unsigned char *end)
{
	if (atok_full(l->n, l->cap, l->text.len, l->text.cap, n))
		atok_room(l, n);
	hg_atok *a = &l->v[l->n++];
	a->kind = kind;
	a->len = (unsigned)n;
	a->pos = pos;
	l->text.len = twin_put(l->text.data, l->split, l->text.len, l->text0, s, n, end, &a->off);
	a->text = l->arena ? l->split + l->text0 + a->off : NULL;
}

void hg_atok_list_keep(hg_atok_list *l, hg_atok **toks, char **text)
{
	/* an action without tokens has no NUL yet */
	atok_text_room(l, 1);
	*toks = l->n > l->first ? l->v + l->first : NULL;
	*text = l->text.data + l->text0;
	l->text.data[l->text.len] = l->split[l->text.len] = '\0';
	l->text.len++;
	l->first = l->n;
	l->text0 = l->text.len;
	l->not_ascii = 0;
}

void hg_atok_list_push(hg_atok_list *l, const hg_token *tk, const char *file)
{
	static const hg_atok_kind kinds[] = {
		[HG_TK_WORD] = HG_ATOK_WORD, [HG_TK_NUMBER] = HG_ATOK_NUMBER,
		[HG_TK_PUNCT] = HG_ATOK_PUNCT, [HG_TK_HIDDEN] = HG_ATOK_UNKNOWN,
	};
	if (!hg_is_ascii(tk->text, tk->len))
		l->not_ascii = 1;
	hg_pos pos = tk->pos;
	pos.file = file;
	const unsigned char *s = (const unsigned char *)tk->text;
	atok_put(l, kinds[tk->kind], pos, s, tk->len, s + tk->len);
}

/* The first byte a token may not end on, from `ref`, where a count is
 * `base`: where the count would pass `limit`, or `cap` if that is sooner. */
static inline const unsigned char *stop_after(const unsigned char *ref, size_t base,
					      size_t limit, const unsigned char *cap)
{
	if (base > limit)
		return ref;
	size_t room = limit - base;
	return room < (size_t)(cap - ref) ? ref + room + 1 : cap;
}

/* A line as the gatherer sees it: where it begins (ls) and its column
 * and byte count there, and the first byte a token on it may not end on
 * (stop). */
typedef struct gather_line {
	const unsigned char *ls, *stop;
	unsigned line, col0;
	size_t lbytes0;
} gather_line;

#ifdef __SSE2__
/* A run of tokens read at once: the 64 bytes from a token's start are
 * classed together (one bit a byte), and every token that ends on a blank
 * before the first byte the run may not hold is taken from the masks.
 * Token by token, each start waited on the last token's end (the load of
 * the word, its classing, the scan for its end); here only the run waits
 * on the run before it.
 *
 * The run holds words of letters, digits, '_', '-', '\'' and '#', and the
 * punctuation ',', '/', '=', '>' and '&' standing alone, one blank apart:
 * what the other paths read there as the same tokens, and where the
 * action's text (tokens joined by single blanks) is the bytes as written.
 * Anything else ends it: another byte ('.', which may end a move number,
 * ':', which ends a seat prefix, a tab, a line feed, a non-ASCII or NUL
 * byte), two blanks, or punctuation touching a word; the token-by-token
 * path reads on from there. */
#define RUN_BYTES 64
/* Masks classed for a run that began at most this far back are shifted,
 * not classed again: the run after a seat prefix, which ended the run
 * before it, and the short runs of short actions.  (Measured: 24 left
 * Encrucijada's and Kingdoms' short actions 2 to 3.5% more instructions
 * than token by token; 48 none, and Crusader Kingdoms fewest; 56 more.) */
#define RUN_REUSE 48
/* The most tokens a run holds, and the room its text takes: a separator,
 * its bytes copied whole, a NUL. */
#define RUN_TOKENS (RUN_BYTES / 2)
#define RUN_TEXT (RUN_BYTES + 2)

/* The 64 bytes from `at`, one bit a byte: blanks, the punctuation a run
 * holds, bytes that are not digits, and bytes no run holds (`bad`; bytes
 * past a shifted run's end are taken as those). */
typedef struct run_masks {
	const unsigned char *at;
	unsigned known;		/* bytes from `at` classed */
	uint64_t blank, punct, nondigit, bad;
} run_masks;

static inline HG_ALWAYS_INLINE void run_class16(const unsigned char *p, unsigned shift,
						 run_masks *m)
{
	const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	const __m128i letter = letters16(x), digit = digits16(x);
	const __m128i mark = _mm_or_si128(
		_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('_')), _mm_cmpeq_epi8(x, _mm_set1_epi8('-'))),
		_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\'')), _mm_cmpeq_epi8(x, _mm_set1_epi8('#'))));
	const __m128i punct = _mm_or_si128(
		_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('/')), _mm_cmpeq_epi8(x, _mm_set1_epi8('='))),
		_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('>')),
					  _mm_cmpeq_epi8(x, _mm_set1_epi8('&'))),
			     _mm_cmpeq_epi8(x, _mm_set1_epi8(','))));
	const __m128i blank = _mm_cmpeq_epi8(x, _mm_set1_epi8(' '));
	const __m128i good = _mm_or_si128(_mm_or_si128(_mm_or_si128(letter, digit), mark),
					  _mm_or_si128(punct, blank));
	m->blank |= (uint64_t)(unsigned)_mm_movemask_epi8(blank) << shift;
	m->punct |= (uint64_t)(unsigned)_mm_movemask_epi8(punct) << shift;
	m->nondigit |= (uint64_t)(~(unsigned)_mm_movemask_epi8(digit) & 0xffffu) << shift;
	m->bad |= (uint64_t)(~(unsigned)_mm_movemask_epi8(good) & 0xffffu) << shift;
}

#ifdef RUN_SSSE3_BESIDE
/* The same with SSSE3: each byte's classes looked up by its two halves,
 * one bit for each of these sets (its first half x, second y), the byte
 * in a set when both halves' bits are:
 *   bit 0  ' '                          x 2,    y 0
 *   bit 1  digits                       x 3,    y 0-9
 *   bit 2  '&' ',' '/'                  x 2,    y 6 C F
 *   bit 3  '=' '>'                      x 3,    y D E
 *   bit 4  ' ' '#' '&' '\'' ',' '-' '/'   x 2,    y 0 3 6 7 C D F
 *   bit 5  letters                      x 4 6,  y 1-F
 *   bit 6  letters                      x 5 7,  y 0-A
 *   bit 7  '_'                          x 5,    y F
 * so blanks are bit 0, digits bit 1, the punctuation bits 2 and 3, and
 * what a run holds bits 1 and 3 to 7.  A byte from 0x80 up is in none (its
 * first half, 8 to F, has no bit). */
__attribute__((target("ssse3,bmi,bmi2"))) static void
run_class64_ssse3(const unsigned char *p, run_masks *m)
{
	const __m128i by_y = _mm_setr_epi8(0x53, 0x62, 0x62, 0x72, 0x62, 0x62, 0x76, 0x72, 0x62,
					   0x62, 0x60, 0x20, 0x34, 0x38, 0x28, (char)0xb4);
	const __m128i by_x = _mm_setr_epi8(0, 0, 0x15, 0x0a, 0x20, (char)0xc0, 0x20, 0x40, 0, 0,
					   0, 0, 0, 0, 0, 0);
	const __m128i half = _mm_set1_epi8(0x0f), zero = _mm_setzero_si128();
	m->blank = m->punct = m->nondigit = m->bad = 0;
	for (unsigned i = 0; i < RUN_BYTES; i += 16) {
		const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		const __m128i c = _mm_and_si128(
			_mm_shuffle_epi8(by_y, _mm_and_si128(x, half)),
			_mm_shuffle_epi8(by_x, _mm_and_si128(_mm_srli_epi16(x, 4), half)));
		/* a bit to each byte's top by a 16-bit shift: the low byte's
		 * other bits go to the high byte's low ones, never its top */
		unsigned blank = (unsigned)_mm_movemask_epi8(_mm_slli_epi16(c, 7));
		unsigned digit = (unsigned)_mm_movemask_epi8(_mm_slli_epi16(c, 6));
		unsigned nopunct = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(_mm_and_si128(c, _mm_set1_epi8(0x0c)), zero));
		unsigned bad = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(_mm_and_si128(c, _mm_set1_epi8((char)0xfa)), zero));
		m->blank |= (uint64_t)blank << i;
		m->punct |= (uint64_t)(~nopunct & 0xffffu) << i;
		m->nondigit |= (uint64_t)(~digit & 0xffffu) << i;
		m->bad |= (uint64_t)bad << i;
	}
}
#endif

/* The masks of the run at t: those of a run before it, shifted, while at
 * most RUN_REUSE of its bytes are gone, else the 64 bytes at t classed
 * (with SSSE3 where `ssse3`, a constant where this is inlined). */
static inline HG_ALWAYS_INLINE void run_masks_at(run_masks *m, const unsigned char *t,
						  const int ssse3)
{
	if (m->at && t >= m->at && (size_t)(t - m->at) + (RUN_BYTES - RUN_REUSE) <= m->known) {
		unsigned d = (unsigned)(t - m->at);
		if (d) {
			m->blank >>= d;
			m->punct >>= d;
			m->nondigit >>= d;
			m->bad = (m->bad >> d) | ~(~(uint64_t)0 >> d);
			m->at = t;
			m->known -= d;
		}
		return;
	}
	m->at = t;
	m->known = RUN_BYTES;
#ifdef RUN_SSSE3_BESIDE
	if (ssse3) {
		run_class64_ssse3(t, m);
		return;
	}
#else
	(void)ssse3;
#endif
	m->blank = m->punct = m->nondigit = m->bad = 0;
	run_class16(t, 0, m);
	run_class16(t + 16, 16, m);
	run_class16(t + 32, 32, m);
	run_class16(t + 48, 48, m);
}

/* Copies the 16 bytes at p to joined and to split, with NULs for its
 * blanks in split. */
static inline HG_ALWAYS_INLINE void run_copy16(const unsigned char *p, char *joined, char *split)
{
	const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
	_mm_storeu_si128((__m128i *)(void *)joined, x);
	_mm_storeu_si128((__m128i *)(void *)split,
			 _mm_andnot_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), x));
}

/* Puts the run's tokens, one for each bit of `ends` (a start for each in
 * `starts`), at a (their texts at `texts`, where texts_set, a constant
 * where this is inlined): their count; *last_end gets the last's end. */
static inline HG_ALWAYS_INLINE size_t
run_tokens(hg_atok *a, uint64_t starts, uint64_t ends, uint64_t punct_at, uint64_t numbers_end,
	   const char *file, unsigned line, unsigned col0, size_t off0, char *texts,
	   const int texts_set, unsigned *last_end)
{
	_Static_assert(HG_ATOK_WORD == 0 && HG_ATOK_NUMBER == 1 && HG_ATOK_PUNCT == 3,
		       "a kind is number + 3 * punct");
	hg_atok *const a0 = a;
	unsigned e;
	do {
		const unsigned s = (unsigned)__builtin_ctzll(starts);
		e = (unsigned)__builtin_ctzll(ends);
		starts &= starts - 1;
		ends &= ends - 1;
		a->kind = (hg_atok_kind)((unsigned)(numbers_end >> e & 1) +
					 3 * (unsigned)(punct_at >> s & 1));
		a->len = e - s;
		a->pos.file = file;
		a->pos.line = line;
		a->pos.col = col0 + s;
		a->off = off0 + s;
		a->text = texts_set ? texts + s : NULL;
		a++;
	} while (ends);
	*last_end = e;
	return (size_t)(a - a0);
}

/* The tokens of the run at t (RUN_BYTES readable, t a token's first byte
 * or one the token-by-token path reads), put as atok_put() puts each
 * (the list has room for RUN_TOKENS more and RUN_TEXT bytes): their
 * count, 0 when the run holds no whole token.  *r gets the byte after the
 * last: a blank, or the tab, carriage return or line feed that ended the
 * run. */
static inline HG_ALWAYS_INLINE size_t
gather_run(const unsigned char *t, run_masks *mk, const int ssse3, const gather_line *cur,
	   const char *file, int texts_set, hg_atok *v, size_t *n, size_t cap, char *joined,
	   char *split, size_t *len, size_t tcap, size_t text0, const unsigned char **r)
{
	run_masks_at(mk, t, ssse3);
	const uint64_t word = ~mk->blank;	/* (bad bytes too: they end the run) */
	/* punctuation touching a word, and a blank after a blank, end it */
	uint64_t bad = mk->bad | (mk->punct & ((word << 1) | (word >> 1))) |
		       (mk->blank & (mk->blank >> 1));
	/* the tokens: each starts after a blank (or at t), and ends on the
	 * blank after it, before the first bad byte, or on that byte if it
	 * is white space (the token-by-token path reads on from there) */
	const uint64_t first_bad = bad & -bad;
	uint64_t ends = mk->blank & (word << 1) & (first_bad - 1);
	if (first_bad && (word << 1) & first_bad) {
		unsigned char c = t[__builtin_ctzll(first_bad)];
		if (c == ' ' || c == '\n' || c == '\t' || c == '\r')
			ends |= first_bad;
	}
	if (!ends)
		return 0;
	uint64_t starts = word & ~(word << 1);
	/* the texts as written, the joined with its blanks, the split with
	 * NULs for them; bytes after the last token are overwritten later */
	size_t at = *len;
	joined[at] = ' ';
	split[at] = '\0';
	at += at != text0;
	run_copy16(t, joined + at, split + at);
	run_copy16(t + 16, joined + at + 16, split + at + 16);
	run_copy16(t + 32, joined + at + 32, split + at + 32);
	run_copy16(t + 48, joined + at + 48, split + at + 48);
	const unsigned col0 = cur->col0 + (unsigned)(t - cur->ls);
	hg_atok *const a0 = v + *n;
	/* Each token's kind from two masks: a punctuation token's start is in
	 * punct_at (it stands alone, and is no digit); a number's digits run
	 * from its start to its end, so adding its start's bit to the digits
	 * carries to its end's (numbers_end).  Past a shifted run's known
	 * bytes a token may end on white space: no byte there is a digit, so
	 * the carry stops where such a token ends. */
	const uint64_t digits = ~(mk->nondigit | mk->bad), punct_at = mk->punct & starts;
	const uint64_t numbers_end = (digits + (starts & digits)) & ends;
	unsigned e;
	size_t k = texts_set ?
		   run_tokens(a0, starts, ends, punct_at, numbers_end, file, cur->line, col0,
			      at - text0, split + at, 1, &e) :
		   run_tokens(a0, starts, ends, punct_at, numbers_end, file, cur->line, col0,
			      at - text0, split + at, 0, &e);
	at += e;
	joined[at] = split[at] = '\0';
	*len = at;
	*n += k;
	*r = t + e;
	return k;
}
#endif

/* In hg_lexer_gather_body(): room for `toks` more tokens and `more` more
 * bytes of text, the list's locals put back in it and taken again (an
 * arena list's action may have moved to the start of a new block: the
 * counts move with it). */
#define GATHER_ROOM(toks, more)						\
	do {								\
		l->n = n;						\
		l->text.len = len;					\
		l->first = first;					\
		l->text0 = text0;					\
		atok_room_n(l, (toks), (more));				\
		act0 -= n - l->n;					\
		n = l->n;						\
		first = l->first;					\
		len = l->text.len;					\
		text0 = l->text0;					\
		v = l->v;						\
		cap = l->cap;						\
		joined = l->text.data;					\
		split = l->split;					\
		tcap = l->text.cap;					\
	} while (0)

/* hg_lexer_gather_body(), its runs classed with SSSE3 where `ssse3` (a
 * constant in each of the two functions this is inlined in). */
static inline HG_ALWAYS_INLINE size_t gather_body(hg_lexer *lx, hg_atok_list *l,
						  const char *file, hg_pos *last_end, size_t seats,
						  hg_plain_run *run, const int ssse3)
{
	if (run)
		run->n = 0;
	if (!plain_ready(lx))
		return 0;
	/* Every character on this path is one ASCII byte, so a column and
	 * the counts of the line's and the game's bytes are distances: from
	 * the line's start (gather_line) for the line's, and from p0 for the
	 * game's.  A token may end anywhere before the line's stop, which is
	 * the window's plain end or where a limit would be passed: the counts
	 * only grow, so one comparison checks them all. */
	const unsigned char *const p0 = lx->p, *const lim = plain_limit(lx);
	const unsigned char *const game_stop =
		stop_after(p0, lx->game_bytes, lx->lim.game, lim);
	const unsigned char *const end = lx->end;
	const size_t max_token = lx->lim.token;
#ifdef __SSE2__
	/* runs hold tokens of up to RUN_BYTES - 1 bytes */
	const int runs = max_token >= RUN_BYTES;
	run_masks rm = { NULL, 0, 0, 0, 0, 0 };
#endif
	const unsigned char *q = p0;
	gather_line cur = { p0, NULL, lx->line, lx->col, lx->line_bytes };
	cur.stop = stop_after(cur.ls, cur.lbytes0, lx->lim.line, game_stop);
	/* The list, in locals while tokens are put: its stores are bytes,
	 * which may alias anything, and would have it read again after each. */
	hg_atok *v = l->v;
	char *joined = l->text.data, *split = l->split;
	size_t n = l->n, cap = l->cap, len = l->text.len, tcap = l->text.cap;
	size_t first = l->first, text0 = l->text0;
	const int texts_set = l->arena != NULL;
	/* seat prefixes are taken only where the actions kept stay put */
	if (!texts_set || !run)
		seats = 0;
	size_t act0 = n;	/* the tokens gathered here for the current action */
	size_t taken = 0;	/* seat prefixes taken */
	unsigned on_line = lx->tokens_on_line;	/* tokens on the current line */
	/* the seat prefix or move number that ends the body, if one does */
	const unsigned char *end_t = NULL, *end_r = NULL;
	plain_pos end_at = { 0, 0, 0, 0 };
	hg_tk end_kind = HG_TK_WORD;
	int end_dot = 0;
	/* The line before the last line feed read, and its count of tokens:
	 * where no token is taken after the line feed, the position goes
	 * back there (q, the current character, is still on that line). */
	gather_line before_lf = cur;
	unsigned on_line_before_lf = on_line;
	for (;;) {
		/* The blanks from q (the current character), then one plain
		 * body token; q moves only when the token is taken. */
		const unsigned char *t = q;
		if (t[0] == ' ' && t + 1 < cur.stop && t[1] > ' ') {
			t++;	/* one blank, the common case */
		} else {
			while (t < cur.stop && (*t == ' ' || *t == '\t' || *t == '\r'))
				t++;
			if (t < cur.stop && *t == '\n') {
				/* one line feed (a blank line is for lex() to see) */
				before_lf = cur;
				on_line_before_lf = on_line;
				on_line = 0;
				cur.line++;
				cur.ls = ++t;
				cur.col0 = 1;
				cur.lbytes0 = 1;
				cur.stop = stop_after(cur.ls, cur.lbytes0, lx->lim.line, game_stop);
				while (t < cur.stop && (*t == ' ' || *t == '\t' || *t == '\r'))
					t++;
			}
		}
		if (t >= cur.stop)
			break;
#ifdef __SSE2__
		if (runs && cur.stop - t >= RUN_BYTES) {
			const unsigned char *r;
			if (cap - n < RUN_TOKENS || tcap - len < RUN_TEXT)
				GATHER_ROOM(RUN_TOKENS, RUN_TEXT);
			size_t k = gather_run(t, &rm, ssse3, &cur, file, texts_set, v, &n, cap,
					      joined, split, &len, tcap, text0, &r);
			if (k) {
				on_line += (unsigned)k;
				q = r;
				continue;
			}
		}
#endif
		unsigned char cls = ascii_class[*t];
		const unsigned char *r;
		hg_atok_kind kind;
		if (t + 1 < cur.stop && t[1] == ' ' && (cls & (C_PUNCT | C_WORD))) {
			/* one character, then a blank (a die, '/', '='): not
			 * a seat prefix or a move number, which go on with
			 * ':' or '.'; no word scan */
			r = t + 1;
			kind = cls & C_PUNCT ? HG_ATOK_PUNCT :
			       cls & C_DIGIT ? HG_ATOK_NUMBER : HG_ATOK_WORD;
		} else if (cls & C_PUNCT) {
			r = t + 1;
			kind = HG_ATOK_PUNCT;
		} else if (cls & C_WORD) {
			hg_tk k;
			int dot;
			r = plain_word(t, cur.stop, &k, &dot);
			/* a seat prefix or a move number ends the body (a number
			 * with dots may be one): it is read as the next token */
			if (dot || (r < cur.stop && *r == ':')) {
				plain_pos at = { cur.line, cur.col0 + (unsigned)(t - cur.ls),
						 cur.lbytes0 + (size_t)(t - cur.ls),
						 lx->game_bytes + (size_t)(t - p0) };
				size_t sl = (size_t)(r - t);
				/* A seat prefix after the current action's tokens
				 * ends it, where hg_lexer_take_seat() would take
				 * it: the action is kept, and the next begins. */
				if (!dot && taken < seats && n > act0 && r + 1 < lim &&
				    plain_fits(lx, t, r, lim, &at) &&
				    plain_seat_fits(lx, r, lim, &at, sl)) {
					hg_plain_action *pa = &run->v[taken++];
					pa->toks = v + first;
					pa->ntoks = n - first;
					pa->text = joined + text0;
					pa->len = len - text0;
					pa->ascii = !l->not_ascii;
					l->not_ascii = 0;
					/* its NUL is there already, after its last token */
					first = n;
					text0 = ++len;
					act0 = n;
					pa->next.text = (const char *)t;
					pa->next.len = sl;
					pa->next.line = cur.line;
					pa->next.col = at.col;
					pa->next.end_line = cur.line;
					pa->next.end_col = at.col + (unsigned)sl + 1;
					on_line++;
					q = r + 1;
					continue;
				}
				end_t = t;
				end_r = r;
				end_at = at;
				end_kind = k;
				end_dot = dot;
				break;
			}
			kind = k == HG_TK_NUMBER ? HG_ATOK_NUMBER : HG_ATOK_WORD;
		} else {
			break;	/* a NUL, a byte from 0x80 up, or what lex() reads */
		}
		/* r becomes the current character: it must be plain too */
		size_t tn = (size_t)(r - t);
		if (r >= cur.stop || *r == 0 || *r >= 0x80 || tn > max_token)
			break;
		/* the token, put as atok_put() puts one */
		if (atok_full(n, cap, len, tcap, tn))
			GATHER_ROOM(1, tn + SHORT_COPY + 2);
		hg_atok *a = &v[n++];
		a->kind = kind;
		a->len = (unsigned)tn;
		a->pos.file = file;
		a->pos.line = cur.line;
		a->pos.col = cur.col0 + (unsigned)(t - cur.ls);
		len = twin_put(joined, split, len, text0, t, tn, end, &a->off);
		a->text = texts_set ? split + text0 + a->off : NULL;
		on_line++;
		q = r;
	}
	l->n = n;
	l->text.len = len;
	l->first = first;
	l->text0 = text0;
	if (q < cur.ls) {
		cur = before_lf;
		on_line = on_line_before_lf;
	}
	size_t gathered = n - act0;
	if (run)
		run->n = taken;
	if (gathered || taken) {
		plain_pos at = { cur.line, cur.col0 + (unsigned)(q - cur.ls),
				 cur.lbytes0 + (size_t)(q - cur.ls),
				 lx->game_bytes + (size_t)(q - p0) };
		plain_commit(lx, q, &at, 0, on_line);
		lx->attach = gathered != 0;
	}
	if (gathered) {
		last_end->file = lx->name;
		last_end->line = lx->line;
		last_end->col = lx->col;
		/* The token that ended the body is scanned already: kept, it
		 * is not read twice. */
		if (end_t) {
			lx->pending = 1;
			lx->ahead.t = end_t;
			lx->ahead.r = end_r;
			lx->ahead.at = end_at;
			lx->ahead.kind = end_kind;
			lx->ahead.dot = end_dot;
		}
	}
	return gathered;
}

#ifdef RUN_SSSE3_BESIDE
/* The gatherer for SSSE3, BMI1 and BMI2: the bit instructions read the
 * masks in fewer instructions too (a tenth of the gatherer's). */
__attribute__((target("ssse3,bmi,bmi2"), noinline)) static size_t
gather_body_ssse3(hg_lexer *lx, hg_atok_list *l, const char *file, hg_pos *last_end,
		  size_t seats, hg_plain_run *run)
{
	return gather_body(lx, l, file, last_end, seats, run, 1);
}
#endif

size_t hg_lexer_gather_body(hg_lexer *lx, hg_atok_list *l, const char *file,
			    hg_pos *last_end, size_t seats, hg_plain_run *run)
{
#ifdef RUN_SSSE3_BESIDE
	if (lx->run_ssse3)
		return gather_body_ssse3(lx, l, file, last_end, seats, run);
#endif
	return gather_body(lx, l, file, last_end, seats, run, 0);
}

/* Moves `at` over the n one-byte characters of a token. */
static inline void plain_step(plain_pos *at, size_t n)
{
	at->col += (unsigned)n;
	at->line_bytes += n;
	at->game_bytes += n;
}

int hg_lexer_take_tag(hg_lexer *lx, hg_plain_tag *tag)
{
	if (lx->pending || !plain_ready(lx))
		return 0;
	/* The three tokens plain_next() would read, each where plain_fits()
	 * lets it: the name (a word), the string, the ']', on this line. */
	const unsigned char *const lim = plain_limit(lx);
	const unsigned line = lx->line;
	plain_pos at = { lx->line, lx->col, lx->line_bytes, lx->game_bytes };
	const unsigned char *t = plain_blanks(lx, lx->p, lim, &at);
	if (!t || at.line != line || !(ascii_class[*t] & C_WORD))
		return 0;
	hg_tk kind;
	int dot;
	const unsigned char *r = plain_word(t, lim, &kind, &dot);
	if (kind != HG_TK_WORD || dot || !hg_tag_name_ok((const char *)t, (size_t)(r - t)) ||
	    !plain_fits(lx, t, r, lim, &at))
		return 0;
	tag->name = (const char *)t;
	tag->name_len = (size_t)(r - t);
	tag->name_pos = (hg_pos){ lx->name, at.line, at.col };
	plain_step(&at, (size_t)(r - t));
	t = plain_blanks(lx, r, lim, &at);
	if (!t || at.line != line || *t != '"')
		return 0;
	r = plain_string(t, lim);
	if (!r || !plain_fits(lx, t, r, lim, &at))
		return 0;
	tag->value = (const char *)t + 1;
	tag->value_len = (size_t)(r - t) - 2;
	tag->value_pos = (hg_pos){ lx->name, at.line, at.col };
	plain_step(&at, (size_t)(r - t));
	t = plain_blanks(lx, r, lim, &at);
	if (!t || at.line != line || *t != ']' || !plain_fits(lx, t, t + 1, lim, &at))
		return 0;
	plain_commit(lx, t + 1, &at, 1, lx->tokens_on_line + 3);
	lx->attach = 0;
	tag->end = (hg_pos){ lx->name, lx->line, lx->col };
	return 1;
}

/* Takes the plain run [t, r) at `at` as a seat prefix, as plain_emit()
 * would make it one, ':' and all, without making a token: 1, or 0 having
 * changed nothing. */
static int take_seat_at(hg_lexer *lx, const unsigned char *t, const unsigned char *r,
			const unsigned char *lim, const plain_pos *at, hg_plain_seat *seat)
{
	size_t len = (size_t)(r - t);
	/* r may be the end of the input: nothing is read there */
	if (r + 1 >= lim || *r != ':' || !plain_fits(lx, t, r, lim, at) ||
	    !plain_seat_fits(lx, r, lim, at, len))
		return 0;
	unsigned on_line = at->line != lx->line ? 0 : lx->tokens_on_line;
	seat->text = (const char *)t;
	seat->len = len;
	seat->line = at->line;
	seat->col = at->col;
	plain_commit(lx, r + 1, at, len + 1, on_line + 1);
	lx->attach = 0;
	seat->end_line = lx->line;
	seat->end_col = lx->col;
	return 1;
}

int hg_lexer_take_seat(hg_lexer *lx, hg_plain_seat *seat)
{
	if (!lx->pending || lx->ahead.dot ||
	    !take_seat_at(lx, lx->ahead.t, lx->ahead.r, plain_limit(lx), &lx->ahead.at, seat))
		return 0;
	lx->pending = 0;
	return 1;
}

int hg_lexer_take_movenum(hg_lexer *lx, hg_plain_movenum *m)
{
	if (!lx->pending || !lx->ahead.dot)
		return 0;
	const unsigned char *t = lx->ahead.t, *r = lx->ahead.r, *lim = plain_limit(lx);
	const plain_pos *at = &lx->ahead.at;
	if (!plain_fits(lx, t, r, lim, at))
		return 0;
	size_t d, e;
	unsigned long value;
	if (plain_movenum(t, r, &d, &e, &value) <= 0)
		return 0;
	lx->pending = 0;
	unsigned on_line = at->line != lx->line ? 0 : lx->tokens_on_line;
	m->number = (unsigned)value;
	m->line = at->line;
	m->col = at->col;
	plain_commit(lx, t + e, at, e, on_line + 1);
	lx->attach = 0;
	m->end_line = lx->line;
	m->end_col = lx->col;
	return 1;
}

int hg_lexer_take_next_seat(hg_lexer *lx, hg_plain_seat *seat)
{
	if (lx->pending || !plain_ready(lx))
		return 0;
	/* as plain_next() reads a token */
	const unsigned char *lim = plain_limit(lx);
	plain_pos at = { lx->line, lx->col, lx->line_bytes, lx->game_bytes };
	const unsigned char *t = plain_blanks(lx, lx->p, lim, &at);
	if (!t || *t >= 0x80 || !(ascii_class[*t] & C_WORD))
		return 0;
	hg_tk kind;
	int dot;
	const unsigned char *r = plain_word(t, lim, &kind, &dot);
	return !dot && take_seat_at(lx, t, r, lim, &at, seat);
}

void hg_atok_list_free(hg_atok_list *l)
{
	if (!l->arena) {	/* (an arena's room is the arena's) */
		free(l->v);
		hg_buf_free(&l->text);
		free(l->split);
	}
	memset(l, 0, sizeof *l);
}

/* One allocation per action instead of one per token: the block holds the
 * tokens, then the joined text, then the same bytes again with each
 * separating space turned into a NUL (a token never holds a space, so
 * these are the tokens' own texts), then the seat. */
void hg_action_text_make(hg_action_text *t, const char *seat, size_t seat_len,
			 hg_pos seat_pos, const hg_atok_list *l)
{
	size_t ntoks = l->n - l->first, tl = l->text.len - l->text0, sl = seat_len;
	size_t tokbytes = ntoks * sizeof *l->v;
	size_t size = tokbytes + 2 * (tl + 1) + sl + 1;
	char *block = hg_xmalloc(size);
	hg_atok *toks = (hg_atok *)(void *)block;
	char *text = block + tokbytes;
	char *strs = text + tl + 1;
	char *seat_copy = strs + tl + 1;
	if (tokbytes)
		memcpy(toks, l->v + l->first, tokbytes);
	if (tl) {
		memcpy(text, l->text.data + l->text0, tl);
		memcpy(strs, l->split + l->text0, tl);
	}
	text[tl] = strs[tl] = '\0';
	for (size_t i = 0; i < ntoks; i++)
		toks[i].text = strs + toks[i].off;
	memcpy(seat_copy, seat, sl);
	seat_copy[sl] = '\0';
	memset(t, 0, sizeof *t);
	t->block = block;
	t->seat = seat_copy;
	t->seat_len = sl;
	t->seat_pos = seat_pos;
	t->toks = ntoks ? toks : NULL;
	t->ntoks = ntoks;
	t->text = text;
	t->len = tl;
	t->ascii = !l->not_ascii;	/* plain-path tokens are ASCII */
	t->pos = ntoks ? toks[0].pos : seat_pos;
}

/* Cuts "seat: body" with the lexer itself, so that what it accepts is what
 * the writer's output will lex back to. */
int hg_action_text_set(hg_action_text *t, const char *seat, const char *body,
		       hg_pos pos, hg_diags *d)
{
	memset(t, 0, sizeof *t);
	hg_diags local;
	hg_diags_init(&local);
	if (!d)
		d = &local;
	hg_buf src;
	hg_buf_init(&src);
	hg_atok_list toks;
	memset(&toks, 0, sizeof toks);
	hg_buf_printf(&src, "%s: %s", seat, body);
	hg_lexer *lx = hg_lexer_open_mem(pos.file, src.data, src.len);
	hg_lexer_set_origin(lx, pos);
	hg_lexer_set_diags(lx, d);
	size_t before = d->nerrors;
	int rc = 0;

	const hg_token *tk = hg_lexer_next(lx);
	if (tk->kind != HG_TK_SEAT || tk->bad || strcmp(tk->text, seat) != 0) {
		hg_diag *dg = hg_lexer_error(lx, pos, "hgn.bad-seat",
					     "'%s' is not a seat name", seat);
		if (dg)
			hg_diag_note(dg, "a seat is one word (letters, digits, _ - ' . #) written before ':'");
		rc = -1;
		goto done;
	}
	hg_pos seat_pos = tk->pos;
	seat_pos.file = pos.file;
	for (tk = hg_lexer_next(lx); tk->kind != HG_TK_EOF; tk = hg_lexer_next(lx)) {
		if (!hg_lexer_is_body(tk->kind) || tk->bad) {
			if (!tk->bad)
				hg_lexer_error(lx, tk->pos.line ? tk->pos : pos, "hgn.bad-action",
					       "%s '%s' cannot be part of an action's body",
					       hg_tk_name(tk->kind), tk->text);
			rc = -1;
			goto done;
		}
		hg_atok_list_push(&toks, tk, pos.file);
	}
	if (toks.n == 0) {
		hg_lexer_error(lx, pos, "hgn.empty-action",
			       "the action of '%s' has no body", seat);
		rc = -1;
		goto done;
	}
	if (d->nerrors == before)
		hg_action_text_make(t, seat, strlen(seat), seat_pos, &toks);
done:
	if (d->nerrors != before)
		rc = -1;
	hg_lexer_close(lx);
	hg_buf_free(&src);
	hg_atok_list_free(&toks);
	hg_diags_free(&local);
	return rc;
}
