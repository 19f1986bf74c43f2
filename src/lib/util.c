/* util.c - allocation and the growable buffer. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *hg_version(void)
{
	return PACKAGE_VERSION;
}

void hg_out_of_memory(size_t n)
{
	fprintf(stderr, "herald: out of memory (%zu bytes)\n", n);
	abort();
}

void *hg_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		hg_out_of_memory(n);
	return p;
}

/* memset through a pointer the compiler cannot see through: otherwise it
 * turns malloc-then-memset back into calloc (see hg_xcalloc). */
static void *(*const volatile zero_fill)(void *, int, size_t) = memset;

void *hg_xcalloc(size_t n, size_t size)
{
	/* malloc and memset rather than calloc: glibc's calloc bypasses the
	 * per-thread cache, and the engines allocate and free an action per
	 * action checked, where that cache makes it several times cheaper. */
	if (n == 0 || size == 0)
		n = size = 1;
	if (n > (size_t)-1 / size)
		hg_out_of_memory((size_t)-1);
	void *p = malloc(n * size);
	if (!p)
		hg_out_of_memory(n * size);
	zero_fill(p, 0, n * size);
	return p;
}

void *hg_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		hg_out_of_memory(n);
	return q;
}

char *hg_xstrdup(const char *s)
{
	return hg_xstrndup(s, strlen(s));
}

char *hg_xstrndup(const char *s, size_t n)
{
	char *p = hg_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

size_t hg_grown(size_t cap, size_t need, size_t size)
{
	if (cap < 8)
		cap = 8;
	while (cap < need) {
		if (cap > ((size_t)-1) / 2 / size)
			hg_out_of_memory(need * size);
		cap *= 2;
	}
	return cap;
}

void hg_grow(void **v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return;
	size_t c = hg_grown(*cap, need, size);
	*v = hg_xrealloc(*v, c * size);
	*cap = c;
}

/* A chunk is followed by its blocks; a block bigger than a quarter of the
 * usual chunk gets a chunk of its own. */
#define ARENA_CHUNK (32 * 1024)
#define ARENA_ALIGN (_Alignof(max_align_t))

typedef struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	_Alignas(max_align_t) unsigned char data[];
} arena_chunk;

struct hg_arena {
	arena_chunk *head;	/* the chunk being filled, then the older ones */
};

struct hg_arena *hg_arena_new(void)
{
	return hg_xcalloc(1, sizeof(struct hg_arena));
}

/* `size` bytes, their start a multiple of `align` (a power of two). */
static void *arena_take(struct hg_arena *a, size_t size, size_t align)
{
	arena_chunk *c = a->head;
	size_t start = c ? (c->used + align - 1) & ~(align - 1) : 0;
	if (!c || start > c->size || c->size - start < size) {
		size_t cap = size > ARENA_CHUNK / 4 ? size : ARENA_CHUNK;
		if (cap > (size_t)-1 - sizeof *c)
			hg_out_of_memory(size);
		c = hg_xmalloc(sizeof *c + cap);
		c->size = cap;
		c->used = 0;
		start = 0;
		if (size > ARENA_CHUNK / 4 && a->head) {
			/* keep filling the current chunk */
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	c->used = start + size;
	return c->data + start;
}

void *hg_arena_alloc(struct hg_arena *a, size_t size)
{
	return arena_take(a, size, ARENA_ALIGN);
}

void *hg_arena_alloc_aligned(struct hg_arena *a, size_t size, size_t align)
{
	return arena_take(a, size, align);
}

void hg_arena_free(struct hg_arena *a)
{
	if (!a)
		return;
	for (arena_chunk *c = a->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

void hg_buf_init(hg_buf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
}

void hg_buf_free(hg_buf *b)
{
	free(b->data);
	hg_buf_init(b);
}

void hg_buf_clear(hg_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void hg_buf_putn(hg_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
		hg_grow((void **)&b->data, &b->cap, b->len + n + 1, 1);
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void hg_buf_puts(hg_buf *b, const char *s)
{
	hg_buf_putn(b, s, strlen(s));
}

void hg_buf_putc(hg_buf *b, char c)
{
	if (b->len + 2 > b->cap)
		hg_grow((void **)&b->data, &b->cap, b->len + 2, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void hg_buf_vprintf(hg_buf *b, const char *fmt, va_list ap)
{
	/* One pass when the text fits in what is already there (usually). */
	if (b->cap - b->len < 64)
		hg_grow((void **)&b->data, &b->cap, b->len + 64, 1);
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, cp);
	va_end(cp);
	if (n < 0) {
		b->data[b->len] = '\0';
		return;
	}
	if ((size_t)n >= b->cap - b->len) {
		hg_grow((void **)&b->data, &b->cap, b->len + (size_t)n + 1, 1);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void hg_buf_printf(hg_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *hg_buf_steal(hg_buf *b)
{
	char *p = b->data ? b->data : hg_xstrdup("");
	hg_buf_init(b);
	return p;
}

void hg_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void hg_quote(hg_buf *b, const char *s)
{
	enum { QUOTE_MAX = 60 };
	hg_buf_putc(b, '\'');
	size_t chars = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p & 0xC0) != 0x80 && chars++ == QUOTE_MAX) {
			hg_buf_puts(b, "...");
			break;
		}
		switch (*p) {
		case '\n': hg_buf_puts(b, "\\n"); break;
		case '\t': hg_buf_puts(b, "\\t"); break;
		case '\r': hg_buf_puts(b, "\\r"); break;
		default:
			if (*p < 0x20 || *p == 0x7F)
				hg_buf_printf(b, "\\x%02x", *p);
			else
				hg_buf_putc(b, (char)*p);
		}
	}
	hg_buf_putc(b, '\'');
}
