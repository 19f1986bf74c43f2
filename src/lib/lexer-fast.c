/* lexer-fast.c - the lexer's fast scanner (lexer.h, hg_lexer_scan): most
 * of a record is ASCII words, numbers and single blanks, read here into a
 * batch of tokens in one pass (runs of tokens with SSE2, or SSSE3, BMI1
 * and BMI2 where the processor has them), stopping wherever the clear path
 * of lexer.c has something to decide, to say or to decode.  It returns the
 * tokens hg_lexer_next() would, nothing more; the unit tests (test-lexer,
 * test-parser) and fuzz/fuzz-hgn.c read every input both ways. */
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

/* True when the scanner may start: the current character is plain ASCII
 * and positions are counted. */
static inline int plain_ready(const hg_lexer *lx)
{
	return lx->started && lx->known && !lx->cut_at_game && lx->clen == 1 &&
	       lx->c > 0 && lx->c < 0x80 && !lx->careful_only;
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

/* A line as the scanner sees it: where it begins (ls) and its column
 * and byte count there, and the first byte a token on it may not end on
 * (stop). */
typedef struct scan_line {
	const unsigned char *ls, *stop;
	unsigned line, col0;
	size_t lbytes0;
} scan_line;

#ifdef LEX_SSE2
/* A run of tokens read at once: the 64 bytes from a token's start are
 * classed together (one bit a byte), and every token that ends on a blank
 * before the first byte the run may not hold is taken from the masks.
 *
 * The run holds words of letters, digits, '_', '-', '\'' and '#', and the
 * punctuation ',', '/', '=', '>' and '&' standing alone, one blank apart:
 * what the clear path reads there as the same tokens.
 * Anything else ends it: another byte ('.', which may end a move number,
 * ':', which ends a seat prefix, a tab, a line feed, a non-ASCII or NUL
 * byte), two blanks, or punctuation touching a word; the token-by-token
 * path reads on from there. */
#define RUN_BYTES 64
/* Masks classed for a run that began at most this far back are shifted,
 * not classed again: the run after a seat prefix, which ended the run
 * before it, and the short runs of short actions. */
#define RUN_REUSE 48
/* The most tokens a run holds. */
#define RUN_TOKENS (RUN_BYTES / 2)


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

/* The run's tokens, one for each bit of `ends` (a start for each in
 * `starts`), put at v: their count; *last_end gets the last's end. */
static inline HG_ALWAYS_INLINE size_t
run_tokens(hg_scan_token *v, const unsigned char *t, uint64_t starts,
	   uint64_t ends, uint64_t punct_at, uint64_t numbers_end, unsigned line, unsigned col0,
	   unsigned *last_end)
{
	_Static_assert(HG_TK_NUMBER == HG_TK_WORD + 1 && HG_TK_PUNCT == HG_TK_WORD + 2,
		       "a kind is WORD + number + 2 * punct");
	hg_scan_token *const v0 = v;
	unsigned e;
	do {
		const unsigned s = (unsigned)__builtin_ctzll(starts);
		e = (unsigned)__builtin_ctzll(ends);
		starts &= starts - 1;
		ends &= ends - 1;
		v->text = (const char *)t + s;
		v->len = e - s;
		v->line = line;
		v->col = col0 + s;
		v->end_col = col0 + e;
		/* without a branch, which the kinds' mix would mispredict */
		v->kind = (hg_tk)(HG_TK_WORD + (unsigned)(numbers_end >> e & 1) +
				  2 * (unsigned)(punct_at >> s & 1));
		v->newline = 0;
		v++;
	} while (ends);
	*last_end = e;
	return (size_t)(v - v0);
}

/* The tokens of the run at t (RUN_BYTES readable, t a token's first byte
 * or one the token-by-token path reads; `off` its offset), put at v (room
 * for RUN_TOKENS): their count, 0 when the run holds no whole token.  *r
 * gets the byte after the last: a blank, or the tab, carriage return or
 * line feed that ended the run. */
static inline HG_ALWAYS_INLINE size_t
scan_run(const unsigned char *t, run_masks *mk, const int ssse3,
	 const scan_line *cur, hg_scan_token *v, const unsigned char **r)
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
	/* Each token's kind from two masks: a punctuation token's start is in
	 * punct_at (it stands alone, and is no digit); a number's digits run
	 * from its start to its end, so adding its start's bit to the digits
	 * carries to its end's (numbers_end).  Past a shifted run's known
	 * bytes a token may end on white space: no byte there is a digit, so
	 * the carry stops where such a token ends. */
	const uint64_t digits = ~(mk->nondigit | mk->bad), punct_at = mk->punct & starts;
	const uint64_t numbers_end = (digits + (starts & digits)) & ends;
	unsigned e;
	size_t k = run_tokens(v, t, starts, ends, punct_at, numbers_end, cur->line,
			      cur->col0 + (unsigned)(t - cur->ls), &e);
	*r = t + e;
	return k;
}
#endif

/* A batch ends when it has room for no more runs. */
#ifdef LEX_SSE2
#define SCAN_FULL (HG_SCAN_BATCH - RUN_TOKENS)
#else
#define SCAN_FULL HG_SCAN_BATCH
#endif

/* Makes r, at `at`, the current character (plain ASCII inside the
 * window), `on_line` tokens read on its line. */
static inline void plain_commit(hg_lexer *lx, const unsigned char *r, unsigned line,
				unsigned col, size_t line_bytes, size_t game_bytes,
				unsigned on_line)
{
	if (line != lx->line)
		lx->line_reported = 0;
	lx->line = line;
	lx->col = col;
	lx->line_bytes = line_bytes;
	lx->game_bytes = game_bytes;
	lx->tokens_on_line = on_line;
	lx->p = r;
	lx->c = *r;
	lx->clen = 1;
	lx->bad_run = BAD_NONE;
	lx->line_clean = 0;
}

/* hg_lexer_scan(), its runs classed with SSSE3 where `ssse3` (a constant
 * in each of the two functions this is inlined in). */
static inline HG_ALWAYS_INLINE size_t scan(hg_lexer *lx, hg_scan_batch *b, const int ssse3)
{
	b->n = 0;
	b->end = (const char *)lx->end;
	b->base = (const char *)lx->base;
	b->base_off = lx->base_off;
	if (!plain_ready(lx))
		return 0;
	/* Every character on this path is one ASCII byte, so a column and
	 * the counts of the line's and the game's bytes are distances: from
	 * the line's start (scan_line) for the line's, and from p0 for the
	 * game's.  A token may end anywhere before the line's stop, which is
	 * the window's plain end or where a limit would be passed: the counts
	 * only grow, so one comparison checks them all. */
	const unsigned char *const p0 = lx->p, *const lim = plain_limit(lx);
	const unsigned char *const game_stop =
		stop_after(p0, lx->game_bytes, lx->lim.game, lim);
	const size_t max_token = lx->lim.token;
#ifdef LEX_SSE2
	/* runs hold tokens of up to RUN_BYTES - 1 bytes */
	const int runs = max_token >= RUN_BYTES;
	run_masks rm = { NULL, 0, 0, 0, 0, 0 };
#endif
	scan_line cur = { p0, NULL, lx->line, lx->col, lx->line_bytes };
	cur.stop = stop_after(cur.ls, cur.lbytes0, lx->lim.line, game_stop);
	hg_scan_token *const v = b->v;
	size_t n = 0;
	unsigned on_line = lx->tokens_on_line;	/* tokens on the current line */
	/* q, the current character, moves only when a token is taken: the
	 * end of the last token, on the line q_line, q_on_line tokens on it */
	const unsigned char *q = p0;
	scan_line q_line = cur;
	unsigned q_on_line = on_line;
	for (;;) {
		if (n >= SCAN_FULL)
			break;
		/* the blanks from q, at most one line feed (a blank line is for
		 * lex() to see) */
		const unsigned char *t = q;
		if (t[0] == ' ' && t + 1 < cur.stop && t[1] > ' ') {
			t++;	/* one blank, the common case */
		} else {
			while (t < cur.stop && (*t == ' ' || *t == '\t' || *t == '\r'))
				t++;
			if (t < cur.stop && *t == '\n') {
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
			size_t k = scan_run(t, &rm, ssse3, &cur, v + n, &r);
			if (k) {
				v[n].newline = on_line == 0;
				n += k;
				on_line += (unsigned)k;
				q = r;
				q_line = cur;
				q_on_line = on_line;
				continue;
			}
		}
#endif
		/* one token: [t, r) its characters, of which [text, text + len)
		 * its text */
		const unsigned char cls = ascii_class[*t];
		const unsigned char *r, *text = t;
		size_t len;
		unsigned value = 0;
		hg_tk kind;
		if (cls & C_PUNCT) {
			r = t + 1;
			len = 1;
			kind = HG_TK_PUNCT;
		} else if (cls & C_WORD) {
			int dot;
			r = plain_word(t, cur.stop, &kind, &dot);
			len = (size_t)(r - t);
			if (len > max_token)
				break;
			if (dot) {
				size_t d, e;
				unsigned long value_l;
				int m = plain_movenum(t, r, &d, &e, &value_l);
				if (m < 0)
					break;
				if (m > 0) {
					kind = HG_TK_MOVENUM;
					len = d;
					r = t + e;
					value = (unsigned)value_l;
				}
			}
			if (kind != HG_TK_MOVENUM && r < cur.stop && *r == ':') {
				kind = HG_TK_SEAT;	/* the ':' is taken too */
				r++;
			}
		} else if (*t == '"') {
			r = plain_string(t, cur.stop);
			if (!r || (size_t)(r - t) > max_token)
				break;
			text = t + 1;
			len = (size_t)(r - t) - 2;
			kind = HG_TK_STRING;
		} else if (*t == ']') {
			r = t + 1;
			len = 1;
			kind = HG_TK_RBRACKET;
		} else {
			break;	/* a NUL, a byte from 0x80 up, or what lex() reads */
		}
		/* r becomes the current character: it must be plain too */
		if (r >= cur.stop || *r == 0 || *r >= 0x80)
			break;
		hg_scan_token *s = &v[n++];
		s->text = (const char *)text;
		s->len = (unsigned)len;
		s->line = cur.line;
		s->col = cur.col0 + (unsigned)(t - cur.ls);
		s->end_col = cur.col0 + (unsigned)(r - cur.ls);
		s->value = value;
		s->kind = kind;
		s->newline = on_line == 0;
		on_line++;
		q = r;
		q_line = cur;
		q_on_line = on_line;
		/* a string may end the game: what follows counts against the
		 * next game's limits, which the parser begins after it */
		if (kind == HG_TK_STRING)
			break;
	}
	if (n) {
		plain_commit(lx, q, q_line.line, q_line.col0 + (unsigned)(q - q_line.ls),
			     q_line.lbytes0 + (size_t)(q - q_line.ls),
			     lx->game_bytes + (size_t)(q - p0), q_on_line);
		const hg_tk last = v[n - 1].kind;
		lx->attach = last == HG_TK_WORD || last == HG_TK_NUMBER || last == HG_TK_PUNCT;
	}
	b->n = n;
	return n;
}

#ifdef RUN_SSSE3_BESIDE
/* The scanner built for SSSE3, BMI1 and BMI2, for the processors that
 * have them. */
__attribute__((target("ssse3,bmi,bmi2"), noinline)) static size_t
scan_ssse3(hg_lexer *lx, hg_scan_batch *b)
{
	return scan(lx, b, 1);
}
#endif

size_t hg_lexer_scan(hg_lexer *lx, hg_scan_batch *b)
{
	if (!lx->started)
		hg_source_start(lx);
#ifdef RUN_SSSE3_BESIDE
	if (lx->run_ssse3)
		return scan_ssse3(lx, b);
#endif
	return scan(lx, b, 0);
}
