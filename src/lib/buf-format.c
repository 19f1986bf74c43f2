/* buf-format.c - hg_buf_printf's own path for the formats it is mostly
 * given: literal text with %s, %c, %d, %i, %u (int, or with l, ll, or z
 * for %zu) and %%, no flags, width or precision.  The writers build a
 * game's text from thousands of such small pieces; the C library's
 * vsnprintf sets up a stream for each one.  Anything else is left to
 * vsnprintf (hg_buf_vprintf, util.c); what is written is what vsnprintf
 * would write, byte for byte (tests/unit/test-util.c compares them). */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "internal.h"

enum arg_size { ARG_INT, ARG_LONG, ARG_LLONG, ARG_SIZE };

/* Reads the conversion after a '%' at *p (moving *p past it): its letter,
 * and in *size its argument's size; 0 for one this file does not do. */
static char conversion(const char **p, enum arg_size *size)
{
	const char *s = *p;
	*size = ARG_INT;
	if (s[0] == 'l' && s[1] == 'l') {
		*size = ARG_LLONG;
		s += 2;
	} else if (s[0] == 'l') {
		*size = ARG_LONG;
		s++;
	} else if (s[0] == 'z') {
		*size = ARG_SIZE;
		s++;
	}
	char c = *s;
	*p = s + (c != '\0');
	switch (c) {
	case 'd':
	case 'i':
		return *size == ARG_SIZE ? 0 : c;	/* (%zd: no signed size_t in C11) */
	case 'u':
		return c;
	case 's':
	case 'c':
	case '%':
		return *size == ARG_INT ? c : 0;
	default:
		return 0;
	}
}

/* Does this file do every conversion of fmt? */
static int plain(const char *fmt)
{
	for (const char *p = fmt; *p;) {
		if (*p++ != '%')
			continue;
		enum arg_size size;
		if (!conversion(&p, &size))
			return 0;
	}
	return 1;
}

/* Appends n bytes (the NUL after them is put at the end): 0, or -1 when b
 * could not grow. */
static inline int put(hg_buf *b, const char *s, size_t n)
{
	if (b->cap - b->len <= n && hg_buf_reserve(b, n) != 0)
		return -1;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	return 0;
}

static int put_unsigned(hg_buf *b, unsigned long long v, int negative)
{
	char digits[24];	/* 20 digits of 2^64 - 1, and a '-' */
	char *end = digits + sizeof digits, *s = end;
	do {
		*--s = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (negative)
		*--s = '-';
	return put(b, s, (size_t)(end - s));
}

int hg_buf_format_plain(hg_buf *b, const char *fmt, va_list ap)
{
	if (!plain(fmt))
		return -1;
	if (hg_buf_failed(b) || hg_buf_reserve(b, 0) != 0)
		return 0;
	size_t len0 = b->len;
	int rc = 0;
	const char *p = fmt;
	while (*p && rc == 0) {
		const char *lit = p;
		while (*p && *p != '%')
			p++;
		if (p > lit)
			rc = put(b, lit, (size_t)(p - lit));
		if (!*p || rc != 0)
			break;
		p++;
		enum arg_size size;
		char c = conversion(&p, &size);
		if (c == 's') {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";	/* (as glibc writes it) */
			rc = put(b, s, strlen(s));
		} else if (c == 'c' || c == '%') {
			char ch = c == '%' ? '%' : (char)va_arg(ap, int);
			rc = put(b, &ch, 1);
		} else if (c == 'u') {
			unsigned long long v =
				size == ARG_INT	 ? va_arg(ap, unsigned) :
				size == ARG_LONG ? va_arg(ap, unsigned long) :
				size == ARG_SIZE ? va_arg(ap, size_t) :
						   va_arg(ap, unsigned long long);
			rc = put_unsigned(b, v, 0);
		} else {
			long long v = size == ARG_INT  ? va_arg(ap, int) :
				      size == ARG_LONG ? va_arg(ap, long) :
							 va_arg(ap, long long);
			/* the magnitude in unsigned arithmetic: LLONG_MIN too */
			rc = put_unsigned(b, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v,
					  v < 0);
		}
	}
	/* on failure, as vsnprintf's path leaves b: what it held before */
	if (rc != 0)
		b->len = len0;
	b->data[b->len] = '\0';
	return 0;
}
