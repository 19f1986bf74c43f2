/* lexer-impl.h - the lexer's state, shared by its files (internal): the
 * source (source.c: the read window, UTF-8 decoding, positions), the clear
 * path (lexer.c: one function per kind of token) and the fast scanner
 * (lexer-fast.c: the tokens of plain ASCII text read in batches).  Nothing
 * but those files includes it. */
#ifndef HERALD_LEXER_IMPL_H
#define HERALD_LEXER_IMPL_H

#include <string.h>
#if defined(__SSE2__) && !defined(HG_NO_SIMD)
#define LEX_SSE2 1
#include <emmintrin.h>
#endif

#include "lexer.h"


#define EOZ (-1)		/* end of input */
#define BADBYTE (-2)		/* an invalid byte or a NUL, already reported */
#define WINDOW (64 * 1024)	/* bytes read from a stream at a time */

enum { BAD_NONE, BAD_UTF8, BAD_NUL };

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
	int careful_only;	/* no fast scanner (tests compare the two) */
	int run_ssse3;		/* the scanner's runs classed with SSSE3 (tests turn it off) */
	int resumed;		/* opened at a resume point, not at the start */
};

/* ------------------------------------------------------------------------
 * The source (source.c)
 * ------------------------------------------------------------------------ */

/* Decodes the character at p into c (without consuming it). */
void hg_source_decode(hg_lexer *lx);
/* Counts the current character against the line and game limits. */
void hg_source_account(hg_lexer *lx);
/* Reads the first character (a byte order mark is passed over; a UTF-16
 * or UTF-32 file is reported and read as empty). */
void hg_source_start(hg_lexer *lx);

static inline hg_pos here(const hg_lexer *lx)
{
	if (!lx->known)
		return lx->origin;
	hg_pos pos = { lx->name, lx->line, lx->col };
	return pos;
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

static inline int is_nonascii_space(long c)
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

static inline int is_control(long c)
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
		hg_source_account(lx);
		return;
	}
	hg_source_decode(lx);
	hg_source_account(lx);
}

/* The window's last byte the fast scanner may step onto: next() keeps four
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
#ifdef LEX_SSE2
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


/* ------------------------------------------------------------------------
 * The fast scanner (lexer-fast.c)
 * ------------------------------------------------------------------------ */

/* Whether this processor has SSSE3, BMI1 and BMI2 for the runs of tokens. */
int hg_lexer_fast_ssse3_here(void);

#endif
