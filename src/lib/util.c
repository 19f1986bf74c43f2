/* util.c - allocation, the units of work that report its failure, and
 * the growable buffer. */
#include "config.h"

#include <stdint.h>
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

/* ------------------------------------------------------------------------
 * Units of work that report allocation failure (doc/design-apply.md,
 * section 3).  The state is the thread's: `check -j` runs a unit on each
 * thread.
 * ------------------------------------------------------------------------ */

/* Read around every engine call and hook: in libherald.so the default
 * (general-dynamic) model asks the dynamic linker for the thread's copy
 * each time; initial-exec reads it at a fixed offset from the thread
 * pointer.  The library is linked in, not dlopen()ed, where it is used. */
#if defined(__GNUC__)
#define ALLOC_UNIT_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define ALLOC_UNIT_TLS_MODEL
#endif
static _Thread_local struct {
	unsigned depth;		/* units begun and not ended */
	int failed;		/* an allocation failed in the innermost one */
} alloc_unit ALLOC_UNIT_TLS_MODEL;

/* The unit tests' failing allocator (tests/unit/test-alloc.c): a program
 * that defines this counter makes the Nth allocation that a unit makes
 * fail (0: none), counting down.  A weak reference of the library's own:
 * in libherald.so, and in any program that does not define it, it is
 * absent and no allocation is refused. */
extern unsigned long hg_test_fail_after __attribute__((weak, visibility("hidden")));

/* The same test's switch for the sweeps of a buffer used outside any unit
 * (nonzero: a buffer's allocations are counted there too). */
extern int hg_test_count_outside __attribute__((weak, visibility("hidden")));

/* Is this allocation to be refused as if memory had run out?  Counted
 * inside a unit; `anywhere` (a buffer, which reports wherever it is used)
 * counts it outside one too while the test's switch is on. */
static int refused_by_test_at(int anywhere)
{
	if (&hg_test_fail_after == NULL || hg_test_fail_after == 0)
		return 0;
	if (alloc_unit.depth == 0 &&
	    !(anywhere && &hg_test_count_outside != NULL && hg_test_count_outside))
		return 0;
	return --hg_test_fail_after == 0;
}

static int refused_by_test(void)
{
	return refused_by_test_at(0);
}

void hg_alloc_unit_begin(hg_alloc_unit *u)
{
	u->outer_failed = alloc_unit.failed;
	alloc_unit.failed = 0;
	alloc_unit.depth++;
}

int hg_alloc_unit_failed(void)
{
	return alloc_unit.failed;
}

int hg_alloc_reporting(void)
{
	return alloc_unit.depth > 0;
}

int hg_alloc_lost(void)
{
	return alloc_unit.depth > 0 && alloc_unit.failed;
}

unsigned hg_alloc_pause(void)
{
	unsigned depth = alloc_unit.depth;
	alloc_unit.depth = 0;
	return depth;
}

void hg_alloc_resume(unsigned depth)
{
	alloc_unit.depth = depth;
}

void hg_alloc_failure(void)
{
	alloc_unit.failed = 1;
}

int hg_alloc_unit_end(hg_alloc_unit *u, hg_diags *d, size_t ndiags, hg_pos pos)
{
	int failed = alloc_unit.failed;
	if (failed && d) {
		/* what the unit diagnosed went with what it built; the one
		 * diagnostic is made still inside the unit (dropped, not an
		 * abort, when even it finds no memory) */
		hg_diags_truncate(d, ndiags);
		hg_diag_add(d, HG_ERROR, pos, "hg.out-of-memory",
			    "out of memory: what was being read or built is dropped");
	}
	alloc_unit.depth--;
	alloc_unit.failed = u->outer_failed | failed;
	return failed ? HG_ENOMEM : 0;
}

void hg_alloc_report(hg_diags *d, hg_pos pos)
{
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	hg_alloc_failure();
	hg_alloc_unit_end(&u, d, d ? d->n : 0, pos);
}

/* A refused allocation: recorded in the unit of work, or, outside one
 * (or paused), the abort hg_x* make: code written with hg_try_* is then
 * called safely by callers that check no status. */
static void try_failed(size_t n)
{
	if (!hg_alloc_reporting())
		hg_out_of_memory(n);
	hg_alloc_failure();
}

void *hg_try_malloc(size_t n)
{
	void *p = refused_by_test() ? NULL : malloc(n ? n : 1);
	if (!p)
		try_failed(n);
	return p;
}

void *hg_try_calloc(size_t n, size_t size)
{
	if (n == 0 || size == 0)
		n = size = 1;
	if (n > (size_t)-1 / size) {
		try_failed((size_t)-1);
		return NULL;
	}
	void *p = hg_try_malloc(n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

void *hg_try_realloc(void *p, size_t n)
{
	void *q = refused_by_test() ? NULL : realloc(p, n ? n : 1);
	if (!q)
		try_failed(n);
	return q;
}

char *hg_try_strndup(const char *s, size_t n)
{
	if (n == (size_t)-1) {
		try_failed(n);
		return NULL;
	}
	char *p = hg_try_malloc(n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *hg_try_strdup(const char *s)
{
	return hg_try_strndup(s, strlen(s));
}

/* Each in a unit of its own, so that it reports wherever it is called. */
void *hg_open_malloc(size_t n)
{
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	void *p = hg_try_malloc(n);
	hg_alloc_unit_end(&u, NULL, 0, (hg_pos){ NULL, 0, 0 });
	return p;
}

void *hg_open_calloc(size_t n, size_t size)
{
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	void *p = hg_try_calloc(n, size);
	hg_alloc_unit_end(&u, NULL, 0, (hg_pos){ NULL, 0, 0 });
	return p;
}

char *hg_open_strdup(const char *s)
{
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	char *p = hg_try_strdup(s);
	hg_alloc_unit_end(&u, NULL, 0, (hg_pos){ NULL, 0, 0 });
	return p;
}

/* ------------------------------------------------------------------------
 * The allocators that abort
 * ------------------------------------------------------------------------ */

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

int hg_try_grow(void **v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap < 8 ? 8 : *cap;
	while (c < need) {
		if (c > ((size_t)-1) / 2 / size) {
			try_failed((size_t)-1);
			return -1;
		}
		c *= 2;
	}
	void *p = hg_try_realloc(*v, c * size);
	if (!p)
		return -1;
	*v = p;
	*cap = c;
	return 0;
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

struct hg_arena *hg_arena_try_new(void)
{
	return hg_try_calloc(1, sizeof(struct hg_arena));
}

/* `size` bytes, their start a multiple of `align` (a power of two); NULL
 * when no chunk could be had. */
static void *arena_take(struct hg_arena *a, size_t size, size_t align)
{
	if (!a) {	/* (an arena there was no memory for) */
		try_failed(size);
		return NULL;
	}
	arena_chunk *c = a->head;
	size_t start = c ? (c->used + align - 1) & ~(align - 1) : 0;
	if (!c || start > c->size || c->size - start < size) {
		size_t cap = size > ARENA_CHUNK / 4 ? size : ARENA_CHUNK;
		if (cap > (size_t)-1 - sizeof *c) {
			try_failed((size_t)-1);
			return NULL;
		}
		c = hg_try_malloc(sizeof *c + cap);
		if (!c)
			return NULL;
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
	return hg_arena_alloc_aligned(a, size, ARENA_ALIGN);
}

void *hg_arena_alloc_aligned(struct hg_arena *a, size_t size, size_t align)
{
	unsigned depth = hg_alloc_pause();	/* a failure here is not reported */
	void *p = arena_take(a, size, align);
	hg_alloc_resume(depth);
	if (!p)
		hg_out_of_memory(size);
	return p;
}

void *hg_arena_try_alloc(struct hg_arena *a, size_t size, size_t align)
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
	b->failed = 0;
}

void hg_buf_free(hg_buf *b)
{
	free(b->data);
	hg_buf_init(b);
}

void hg_buf_clear(hg_buf *b)
{
	b->len = 0;
	b->failed = 0;
	if (b->data)
		b->data[0] = '\0';
}

int hg_buf_failed(const hg_buf *b)
{
	return b->failed;
}

/* A buffer that could not grow: marked failed, keeping what it holds, and
 * the failure recorded in the thread's unit even while it is paused, so
 * that a call that ran paused code writing into a buffer (an engine's
 * format) ends in HG_ENOMEM rather than with text cut short.  (Outside any
 * unit the flag is read by no one: the next unit begins without it.) */
static int buf_fail(hg_buf *b)
{
	b->failed = 1;
	alloc_unit.failed = 1;
	return -1;
}

/* Room for `more` bytes after the contents and the NUL: 0, or -1 when the
 * buffer has failed, now or before.  Never aborts (herald.h: a buffer
 * that cannot grow keeps what it holds, wherever it is used). */
static int buf_room(hg_buf *b, size_t more)
{
	if (b->failed)
		return -1;
	if (b->cap > b->len && b->cap - b->len > more)
		return 0;
	if (more > (size_t)-1 - b->len - 1)
		return buf_fail(b);
	size_t need = b->len + more + 1;
	size_t cap = b->cap < 8 ? 8 : b->cap;
	while (cap < need) {
		if (cap > (size_t)-1 / 2)
			return buf_fail(b);
		cap *= 2;
	}
	char *data = refused_by_test_at(1) ? NULL : realloc(b->data, cap);
	if (!data)
		return buf_fail(b);
	b->data = data;
	b->cap = cap;
	return 0;
}

int hg_buf_reserve(hg_buf *b, size_t more)
{
	return buf_room(b, more);
}

void hg_buf_putn(hg_buf *b, const char *s, size_t n)
{
	if (buf_room(b, n) != 0)
		return;
	if (n)
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
	if (b->cap - b->len < 2 && buf_room(b, 1) != 0)
		return;
	if (b->failed)
		return;
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void hg_buf_vprintf(hg_buf *b, const char *fmt, va_list ap)
{
	if (hg_buf_format_plain(b, fmt, ap) == 0)
		return;
	/* One pass when the text fits in what is already there (usually). */
	if (b->cap - b->len < 64 && buf_room(b, 63) != 0)
		return;
	if (b->failed)
		return;
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, cp);
	va_end(cp);
	if (n < 0) {
		b->data[b->len] = '\0';
		return;
	}
	if ((size_t)n >= b->cap - b->len) {
		if (buf_room(b, (size_t)n) != 0) {
			b->data[b->len] = '\0';	/* (what vsnprintf cut) */
			return;
		}
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
	/* What a unit steals from a buffer that failed is a prefix, dropped
	 * when the unit ends; an empty buffer's one byte is the only
	 * allocation here, NULL (and the unit told) when it cannot be had. */
	char *p = b->data;
	if (!p) {
		p = refused_by_test_at(1) ? NULL : malloc(1);
		if (p)
			*p = '\0';
		else
			alloc_unit.failed = 1;
	}
	hg_buf_init(b);
	return p;
}

void hg_buf_join(hg_buf *b, char *const *items, size_t n, const char *sep)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			hg_buf_puts(b, sep);
		hg_buf_puts(b, items[i]);
	}
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
