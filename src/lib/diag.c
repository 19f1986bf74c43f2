/* diag.c - diagnostics: collecting them and the GNU text form.  The text
 * form escapes control characters (hg_buf_put_visible): a diagnostic
 * quotes records, file names and data files, none of which may move a
 * terminal's cursor or retitle its window.  The diagnostics themselves
 * keep the exact text, for the JSON formats. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

void hg_diags_init(hg_diags *d)
{
	memset(d, 0, sizeof *d);
}

static void diag_free(hg_diag *dg)
{
	free(dg->file);
	free(dg->code);
	free(dg->message);
	hg_strv_free(dg->notes, dg->nnotes);
	for (size_t i = 0; i < dg->nrests_on; i++) {
		free(dg->rests_on[i].datum);
		free(dg->rests_on[i].file);
	}
	free(dg->rests_on);
}

void hg_diags_clear(hg_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		diag_free(&d->v[i]);
	d->n = d->nerrors = d->nwarnings = d->nunverified = 0;
	d->nlost = 0;
}

void hg_diags_free(hg_diags *d)
{
	hg_diags_clear(d);
	free(d->v);
	hg_diags_init(d);
}

static void count(hg_diags *d, hg_severity s, int delta)
{
	switch (s) {
	case HG_ERROR: d->nerrors += delta; break;
	case HG_WARNING: d->nwarnings += delta; break;
	case HG_UNVERIFIED: d->nunverified += delta; break;
	}
}

/* What hg_diag_add returns for a diagnostic it could not make (counted in
 * the list's nlost): it takes notes and keeps none. */
static _Thread_local hg_diag dropped;

static hg_diag *drop(void)
{
	memset(&dropped, 0, sizeof dropped);
	return &dropped;
}

/* The diagnostic made and appended to d, or NULL (nothing appended) when
 * an allocation failed: hg_try_* style, inside the caller's unit. */
static hg_diag *diag_make(hg_diags *d, hg_severity sev, hg_pos pos, const char *code,
			  const char *fmt, va_list ap)
{
	if (HG_TRY_GROW(d->v, d->cap, d->n + 1) != 0)
		return NULL;
	hg_diag dg;
	memset(&dg, 0, sizeof dg);
	dg.severity = sev;
	dg.line = pos.line;
	dg.col = pos.col;
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_vprintf(&b, hg_gettext(fmt), ap);
	dg.file = pos.file ? hg_try_strdup(pos.file) : NULL;
	dg.code = hg_try_strdup(code ? code : "");
	dg.message = hg_buf_failed(&b) ? NULL : hg_buf_steal(&b);
	if ((pos.file && !dg.file) || !dg.code || !dg.message) {
		hg_buf_free(&b);
		diag_free(&dg);
		return NULL;
	}
	d->v[d->n++] = dg;
	count(d, sev, 1);
	return &d->v[d->n - 1];
}

/* Each public function below is a unit of work of its own (internal.h):
 * it reports wherever it is called, and inside a call that reports
 * HG_ENOMEM its failure is that call's too. */
static const hg_pos no_pos = { NULL, 0, 0 };

hg_diag *hg_diag_vadd(hg_diags *d, hg_severity sev, hg_pos pos,
		      const char *code, const char *fmt, va_list ap)
{
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	hg_diag *dg = diag_make(d, sev, pos, code, fmt, ap);
	hg_alloc_unit_end(&u, NULL, 0, no_pos);
	if (dg)
		return dg;
	d->nlost++;
	return drop();
}

hg_diag *hg_diag_add(hg_diags *d, hg_severity sev, hg_pos pos,
		     const char *code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag *dg = hg_diag_vadd(d, sev, pos, code, fmt, ap);
	va_end(ap);
	return dg;
}

/* Appends the note to dg: 0, or -1 (nothing appended) when an allocation
 * failed. */
static int note_make(hg_diag *dg, const char *fmt, va_list ap)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_vprintf(&b, hg_gettext(fmt), ap);
	char **notes = hg_buf_failed(&b) ? NULL :
		hg_try_realloc(dg->notes, (dg->nnotes + 1) * sizeof *dg->notes);
	if (notes)
		dg->notes = notes;
	char *note = notes ? hg_buf_steal(&b) : NULL;
	if (!note) {
		hg_buf_free(&b);
		return -1;
	}
	dg->notes[dg->nnotes++] = note;
	return 0;
}

int hg_diag_note(hg_diag *dg, const char *fmt, ...)
{
	if (dg == &dropped)
		return HG_ENOMEM;	/* (the diagnostic's loss is counted) */
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	va_list ap;
	va_start(ap, fmt);
	int rc = note_make(dg, fmt, ap);
	va_end(ap);
	hg_alloc_unit_end(&u, NULL, 0, no_pos);
	if (rc == 0)
		return 0;
	dg->notes_lost++;
	return HG_ENOMEM;
}

int hg_diags_move(hg_diags *dst, hg_diags *src)
{
	dst->nlost += src->nlost;
	src->nlost = 0;
	if (src->n == 0)
		return 0;
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	int grown = HG_TRY_GROW(dst->v, dst->cap, dst->n + src->n);
	hg_alloc_unit_end(&u, NULL, 0, no_pos);
	if (grown != 0) {
		dst->nlost += src->n;	/* dropped, and counted */
		hg_diags_clear(src);
		return HG_ENOMEM;
	}
	memcpy(dst->v + dst->n, src->v, src->n * sizeof *src->v);
	dst->n += src->n;
	dst->nerrors += src->nerrors;
	dst->nwarnings += src->nwarnings;
	dst->nunverified += src->nunverified;
	src->n = src->nerrors = src->nwarnings = src->nunverified = 0;
	return 0;
}

size_t hg_diags_lost(const hg_diags *d)
{
	size_t n = d->nlost;
	for (size_t i = 0; i < d->n; i++)
		n += d->v[i].notes_lost;
	return n;
}

void hg_diags_truncate(hg_diags *d, size_t n)
{
	while (d->n > n) {
		hg_diag *dg = &d->v[--d->n];
		count(d, dg->severity, -1);
		diag_free(dg);
	}
}

const char *hg_severity_name(hg_severity s)
{
	switch (s) {
	case HG_ERROR: return "error";
	case HG_WARNING: return "warning";
	case HG_UNVERIFIED: return "unverified";
	}
	return "error";
}

/* The text form names the severity in the user's language, as gcc does;
 * the machine formats keep hg_severity_name's English words. */
static const char *severity_shown(hg_severity s)
{
	switch (s) {
	case HG_ERROR: return _("error");
	case HG_WARNING: return _("warning");
	case HG_UNVERIFIED: return _("unverified");
	}
	return _("error");
}

static const char *severity_colour(hg_severity s)
{
	switch (s) {
	case HG_ERROR: return "\033[1;31m";
	case HG_WARNING: return "\033[1;35m";
	case HG_UNVERIFIED: return "\033[1;33m";
	}
	return "";
}

static void location(const hg_diag *dg, hg_buf *out, int colour)
{
	if (colour)
		hg_buf_puts(out, "\033[1m");
	if (dg->file) {
		hg_buf_puts_visible(out, dg->file);
		if (dg->line) {
			hg_buf_printf(out, ":%u", dg->line);
			if (dg->col)
				hg_buf_printf(out, ":%u", dg->col);
		}
	} else {
		hg_buf_puts(out, "herald");
	}
	hg_buf_puts(out, ":");
	if (colour)
		hg_buf_puts(out, "\033[0m");
	hg_buf_puts(out, " ");
}

void hg_diag_format(const hg_diag *dg, hg_buf *out, int colour)
{
	location(dg, out, colour);
	if (colour)
		hg_buf_puts(out, severity_colour(dg->severity));
	hg_buf_puts(out, severity_shown(dg->severity));
	hg_buf_puts(out, ":");
	if (colour)
		hg_buf_puts(out, "\033[0m");
	hg_buf_putc(out, ' ');
	hg_buf_puts_visible(out, dg->message ? dg->message : "");
	if (dg->code && *dg->code) {
		hg_buf_puts(out, " [");
		hg_buf_puts_visible(out, dg->code);
		hg_buf_putc(out, ']');
	}
	hg_buf_putc(out, '\n');
	for (size_t i = 0; i < dg->nnotes; i++) {
		location(dg, out, colour);
		if (colour)
			hg_buf_puts(out, "\033[1;36m");
		hg_buf_printf(out, "%s:", _("note"));
		hg_buf_puts(out, colour ? "\033[0m " : " ");
		hg_buf_puts_visible(out, dg->notes[i]);
		hg_buf_putc(out, '\n');
	}
}
