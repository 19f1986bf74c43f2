/* lexer-fast.c - the lexer's fast scanner: most of a record is ASCII
 * words, numbers and single blanks, read here in one pass (runs of tokens
 * with SSE2, or SSSE3, BMI1 and BMI2 where the processor has them), giving
 * up wherever the clear path of lexer.c has something to say or to decode.
 * The unit tests (test-lexer, test-parser) read every input both ways. */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "lexer-impl.h"
/* Where the compiler can build a function for SSSE3, BMI1 and BMI2 beside
 * the rest (for the processors that have them, found at run time), runs
 * of tokens are classed with SSSE3's byte shuffles and their masks read
 * with the bit instructions. */
#if defined(LEX_SSE2) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define RUN_SSSE3_BESIDE 1
#include <tmmintrin.h>
#endif

/* Does this processor have SSSE3, BMI1 and BMI2, for the runs of tokens
 * (asked once)? */
int hg_lexer_fast_ssse3_here(void)
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
 * The plain path: most of a record is ASCII words, numbers and single
 * blanks.  These functions read such text in one pass, keeping the
 * position in locals, and give up (changing nothing) wherever the careful
 * path above has something to say or to decode: a non-ASCII or NUL byte,
 * a blank line, the window's end, a limit.
 * ------------------------------------------------------------------------ */

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

#ifdef LEX_SSE2
/* The 16 bytes at p, classed at once: bit i of the result is set when byte
 * i is not a word character (ascii_class's C_WORD), and of *nondigit when
 * it is not a decimal digit.  Bytes from 0x80 up are negative as signed bytes: outside
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
#ifdef LEX_SSE2
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
	if (HG_TRY_GROW(lx->buf.data, lx->buf.cap, (len > SHORT_COPY ? len : SHORT_COPY) + 1) != 0)
		return NULL;	/* lex() reads it (the unit of work fails) */
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
	if (HG_TRY_GROW(lx->buf.data, lx->buf.cap, len + 1) != 0)
		return NULL;	/* lex() reads it (the unit of work fails) */
	memcpy(lx->buf.data, text, len);
	lx->buf.data[len] = '\0';
	lx->buf.len = len;
	lx->attach = 0;
	return plain_token(lx, kind, 0, t, at, steps);
}


const hg_token *hg_lexer_fast_pending(hg_lexer *lx)
{
	/* scanned already, by hg_lexer_gather_body(): made here unless the
	 * plain path must leave it to lex() after all */
	lx->pending = 0;
	const unsigned char *lim = plain_limit(lx);
	if (!plain_fits(lx, lx->ahead.t, lx->ahead.r, lim, &lx->ahead.at))
		return NULL;
	return plain_emit(lx, lx->ahead.t, lx->ahead.r, lim, lx->ahead.at, lx->ahead.kind,
			  lx->ahead.dot);
}

const hg_token *hg_lexer_fast_next(hg_lexer *lx)
{
	return plain_ready(lx) ? plain_next(lx) : NULL;
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

#ifdef LEX_SSE2
/* A run of tokens read at once: the 64 bytes from a token's start are
 * classed together (one bit a byte), and every token that ends on a blank
 * before the first byte the run may not hold is taken from the masks.
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
 * before it, and the short runs of short actions. */
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
 * counts move with it).  Without memory for it, the gathering stops
 * (gather_stopped): lex() reads on. */
#define GATHER_ROOM(toks, more)						\
	do {								\
		l->n = n;						\
		l->text.len = len;					\
		l->first = first;					\
		l->text0 = text0;					\
		if (hg_atok_list_room(l, (toks), (more)) != 0)		\
			goto gather_stopped;				\
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
#ifdef LEX_SSE2
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
#ifdef LEX_SSE2
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
gather_stopped:
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
/* The gatherer built for SSSE3, BMI1 and BMI2, for the processors that
 * have them. */
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
