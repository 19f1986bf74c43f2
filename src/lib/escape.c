/* escape.c - text from a record, a file name or a data file made safe to
 * show: what a terminal would act on (ESC, BEL, CSI, ...) is written as
 * an escape that shows instead (herald(1), DIAGNOSTICS, Control
 * characters). */
#include "config.h"

#include "internal.h"

static void put_byte_escape(hg_buf *b, unsigned char c)
{
	hg_buf_printf(b, "\\x%02x", c);
}

void hg_buf_put_visible(hg_buf *b, const char *s, size_t len, int keep_layout)
{
	size_t i = 0, plain = 0;	/* s[plain .. i) is copied as it is */
	while (i < len) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f) {
			i++;
			continue;
		}
		if (c < 0x80 && keep_layout && (c == '\n' || c == '\t')) {
			i++;
			continue;
		}
		uint32_t cp = 0;
		int n = c < 0x80 ? 1 : hg_utf8_decode(s + i, len - i, &cp);
		if (c >= 0x80 && n > 0 && cp > 0x9f) {
			i += (size_t)n;	/* printable beyond ASCII */
			continue;
		}
		hg_buf_putn(b, s + plain, i - plain);
		if (c < 0x80 || n <= 0) {
			/* C0, DEL, or a byte that is not UTF-8 (in a Latin-1
			 * terminal 0x9b alone is CSI) */
			put_byte_escape(b, c);
			i++;
		} else {
			hg_buf_printf(b, "\\u%04x", (unsigned)cp);	/* C1 */
			i += (size_t)n;
		}
		plain = i;
	}
	hg_buf_putn(b, s + plain, i - plain);
}

void hg_buf_puts_visible(hg_buf *b, const char *s)
{
	hg_buf_put_visible(b, s, strlen(s), 0);
}
