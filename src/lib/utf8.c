/* utf8.c - UTF-8 decoding and the case- and accent-insensitive name fold. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

int hg_utf8_decode(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	if (len == 0)
		return -1;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	int n;
	uint32_t c, min;
	if ((u[0] & 0xE0) == 0xC0) {
		n = 2; c = u[0] & 0x1F; min = 0x80;
	} else if ((u[0] & 0xF0) == 0xE0) {
		n = 3; c = u[0] & 0x0F; min = 0x800;
	} else if ((u[0] & 0xF8) == 0xF0) {
		n = 4; c = u[0] & 0x07; min = 0x10000;
	} else {
		return -1;
	}
	if (len < (size_t)n)
		return -1;
	for (int i = 1; i < n; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return -1;
		c = (c << 6) | (u[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return -1;
	*cp = c;
	return n;
}

size_t hg_utf8_invalid_at(const char *s, size_t len)
{
	size_t i = 0;
	uint32_t cp;
	while (i < len) {
		/* ASCII eight bytes at a time: no byte has its top bit set */
		uint64_t w;
		if (len - i >= sizeof w) {
			memcpy(&w, s + i, sizeof w);
			if (!(w & UINT64_C(0x8080808080808080))) {
				i += sizeof w;
				continue;
			}
		}
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		int n = hg_utf8_decode(s + i, len - i, &cp);
		if (n < 0)
			return i;
		i += (size_t)n;
	}
	return (size_t)-1;
}

size_t hg_utf8_chars(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			n++;
	return n;
}

void hg_utf8_put(hg_buf *b, uint32_t cp)
{
	char o[4];
	size_t n;
	if (cp < 0x80) {
		o[0] = (char)cp; n = 1;
	} else if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F)); n = 2;
	} else if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F)); n = 3;
	} else {
		o[0] = (char)(0xF0 | (cp >> 18));
		o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[3] = (char)(0x80 | (cp & 0x3F)); n = 4;
	}
	hg_buf_putn(b, o, n);
}

/* Base letters of U+00C0..U+00FF (NULL: keep the character). */
static const char *const latin1[64] = {
	"a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
	"d", "n", "o", "o", "o", "o", "o", NULL, "o", "u", "u", "u", "u", "y", "th", "ss",
	"a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
	"d", "n", "o", "o", "o", "o", "o", NULL, "o", "u", "u", "u", "u", "y", "th", "y",
};

/* Base letters of U+0100..U+017F (Latin Extended-A). */
static const char latin_ext_a[129] =
	"aaaaaaccccccccdd" "ddeeeeeeeeeegggg" "gggghhhhiiiiiiii" "iijjjjkkklllllll"
	"lllnnnnnnnnnoooo" "oooorrrrrrssssss" "ssttttttuuuuuuuu" "uuuuwwyyyzzzzzzs";

/* Why a table and not a Unicode library: names in the games' data are
 * Spanish and English; Latin-1 and Latin Extended-A plus combining marks
 * cover every accent they use, and the fold is documented as exactly this.
 *
 * The fold is produced a byte at a time, so that comparing and looking up
 * names (done for every word of every action) allocates nothing. */
typedef struct fold_cursor {
	const char *s;
	size_t i, len;
	const char *pending;	/* the rest of a multi-byte replacement */
	size_t npending;
	char enc[4];
} fold_cursor;

static void fold_start(fold_cursor *c, const char *s, size_t len)
{
	c->s = s;
	c->i = 0;
	c->len = len;
	c->npending = 0;
}

/* The next byte of the fold, or -1 at its end. */
static int fold_next(fold_cursor *c)
{
	if (c->npending) {
		c->npending--;
		return (unsigned char)*c->pending++;
	}
	while (c->i < c->len) {
		unsigned char b = (unsigned char)c->s[c->i];
		if (b < 0x80) {
			c->i++;
			return (b >= 'A' && b <= 'Z') ? b + 32 : b;
		}
		uint32_t cp;
		int n = hg_utf8_decode(c->s + c->i, c->len - c->i, &cp);
		if (n < 0) {
			c->i++;
			return b;	/* kept as it is */
		}
		c->i += (size_t)n;
		const char *rep = NULL;
		size_t nrep = 0;
		if (cp >= 0xC0 && cp <= 0xFF && latin1[cp - 0xC0]) {
			rep = latin1[cp - 0xC0];
			nrep = strlen(rep);
		} else if (cp >= 0x100 && cp <= 0x17F) {
			return (unsigned char)latin_ext_a[cp - 0x100];
		} else if (cp == 0xAA) {
			return 'a';	/* ª as in "2ª" */
		} else if (cp == 0xBA) {
			return 'o';	/* º */
		} else if (cp >= 0x300 && cp <= 0x36F) {
			continue;	/* combining diacritical mark: dropped */
		} else {
			memcpy(c->enc, c->s + c->i - (size_t)n, (size_t)n);
			rep = c->enc;
			nrep = (size_t)n;
		}
		c->pending = rep + 1;
		c->npending = nrep - 1;
		return (unsigned char)rep[0];
	}
	return -1;
}

char *hg_name_fold(const char *s)
{
	hg_buf b;
	hg_buf_init(&b);
	fold_cursor c;
	fold_start(&c, s, strlen(s));
	for (int x; (x = fold_next(&c)) >= 0;)
		hg_buf_putc(&b, (char)x);
	/* Still aborts outside a unit (libherald(3), ALLOCATION FAILURE): the
	 * name tables and the games' loaders take its result as never NULL.
	 * Inside one, a name folded short goes with what the unit built. */
	if (hg_buf_failed(&b) && !hg_alloc_reporting())
		hg_out_of_memory(b.len + 1);
	return hg_buf_steal(&b);
}

size_t hg_name_fold_to(const char *s, char *out, size_t size)
{
	size_t n = 0;
	/* ASCII first, a byte for a byte. */
	for (; n + 1 < size && (unsigned char)s[n] < 0x80; n++) {
		char x = s[n];
		if (x == '\0') {
			out[n] = '\0';
			return n;
		}
		out[n] = (x >= 'A' && x <= 'Z') ? (char)(x + 32) : x;
	}
	fold_cursor c;
	fold_start(&c, s + n, strlen(s + n));
	for (int x; (x = fold_next(&c)) >= 0; n++)
		if (n + 1 < size)
			out[n] = (char)x;
	if (size)
		out[n < size ? n : size - 1] = '\0';
	return n;
}

int hg_is_ascii(const char *s, size_t n)
{
	/* eight bytes at a time: any byte with its top bit set shows */
	size_t i = 0;
	uint64_t any = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, sizeof w);
		any |= w;
	}
	for (; i < n; i++)
		any |= (unsigned char)s[i];
	return (any & UINT64_C(0x8080808080808080)) == 0;
}

int hg_ascii_caseless_eq(const char *word, const char *lower)
{
	for (; *lower; word++, lower++) {
		char c = *word;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		if (c != *lower)
			return 0;
	}
	return *word == '\0';
}

int hg_name_eq(const char *a, const char *b)
{
	/* ASCII folds byte for byte: compare it in place, and decode only
	 * from the first byte that is not ASCII. */
	size_t i = 0;
	for (;; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
		if (x >= 0x80 || y >= 0x80)
			break;
		if (x >= 'A' && x <= 'Z')
			x += 32;
		if (y >= 'A' && y <= 'Z')
			y += 32;
		if (x != y)
			return 0;
		if (x == 0)
			return 1;
	}
	fold_cursor ca, cb;
	fold_start(&ca, a + i, strlen(a + i));
	fold_start(&cb, b + i, strlen(b + i));
	for (;;) {
		int x = fold_next(&ca), y = fold_next(&cb);
		if (x != y)
			return 0;
		if (x < 0)
			return 1;
	}
}

long hg_first_control(const char *s)
{
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		uint32_t c;
		int n = hg_utf8_decode(s + i, len - i, &c);
		if (n < 0) {
			i++;
			continue;
		}
		if (hg_is_control(c))
			return (long)c;
		i += (size_t)n;
	}
	return -1;
}
