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
 * cover every accent they use, and the fold is documented as exactly this. */
char *hg_name_fold(const char *s)
{
	hg_buf b;
	hg_buf_init(&b);
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		int n = hg_utf8_decode(s + i, len - i, &cp);
		if (n < 0) {
			hg_buf_putc(&b, s[i]);
			i++;
			continue;
		}
		i += (size_t)n;
		if (cp < 0x80) {
			hg_buf_putc(&b, (char)((cp >= 'A' && cp <= 'Z') ? cp + 32 : cp));
		} else if (cp >= 0xC0 && cp <= 0xFF && latin1[cp - 0xC0]) {
			hg_buf_puts(&b, latin1[cp - 0xC0]);
		} else if (cp >= 0x100 && cp <= 0x17F) {
			hg_buf_putc(&b, latin_ext_a[cp - 0x100]);
		} else if (cp == 0xAA) {
			hg_buf_putc(&b, 'a');	/* ª as in "2ª" */
		} else if (cp == 0xBA) {
			hg_buf_putc(&b, 'o');	/* º */
		} else if (cp >= 0x300 && cp <= 0x36F) {
			/* combining diacritical mark: dropped */
		} else {
			hg_utf8_put(&b, cp);
		}
	}
	return hg_buf_steal(&b);
}

int hg_name_eq(const char *a, const char *b)
{
	char *fa = hg_name_fold(a), *fb = hg_name_fold(b);
	int eq = strcmp(fa, fb) == 0;
	free(fa);
	free(fb);
	return eq;
}
