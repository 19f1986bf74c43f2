/* engine-call.h - the core's calls of an engine's callbacks (setup, clone,
 * parse, apply, legal, render) inside a unit of work that reports
 * allocation failure (doc/design-apply.md, section 3).
 *
 * A callback whose bit the class sets (hg_game_class.reports_enomem) runs
 * in the unit; when an allocation failed while it ran, whatever it
 * returned, the call ends as its contract says: setup, clone and parse in
 * NULL (what they returned freed), apply in HG_ENOMEM (the state spoiled,
 * as after -1), legal in an empty list, render in output cut short (both
 * then return HG_ENOMEM).  Said here once, not in each engine.  A
 * callback whose bit is clear runs paused: its hg_x* and hg_try_* abort
 * short of memory as they always have, but the library's public functions
 * it calls (a buffer, a diagnostic, a tag) report to the unit, and the
 * call ends the same way.  Outside a unit each is the plain call.
 *
 * Read around every action replayed: inline, and the test of the unit one
 * read of the thread's state. */
#ifndef HERALD_ENGINE_CALL_H
#define HERALD_ENGINE_CALL_H

#include "internal.h"

static inline int hg_engine_reports(const hg_game_class *cls, unsigned callback)
{
	return (cls->reports_enomem & callback) != 0;
}

static inline hg_state *hg_engine_setup(const hg_game_class *cls, const hg_gdata *data,
					const hg_game_record *rec, hg_diags *d)
{
	hg_state *st;
	if (!hg_engine_reports(cls, HG_REPORTS_SETUP))
		HG_PAUSED(st = cls->setup(data, rec, d));
	else
		st = cls->setup(data, rec, d);
	if (st && hg_alloc_lost()) {
		cls->free_state(st);
		return NULL;
	}
	return st;
}

static inline hg_state *hg_engine_clone(const hg_game_class *cls, const hg_state *s)
{
	hg_state *c;
	if (!hg_engine_reports(cls, HG_REPORTS_CLONE))
		HG_PAUSED(c = cls->clone(s));
	else
		c = cls->clone(s);
	if (c && hg_alloc_lost()) {
		cls->free_state(c);
		return NULL;
	}
	return c;
}

static inline hg_action *hg_engine_parse(const hg_game_class *cls, const hg_state *s,
					 const hg_action_text *t, hg_diags *d)
{
	hg_action *a;
	if (!hg_engine_reports(cls, HG_REPORTS_PARSE))
		HG_PAUSED(a = cls->parse(s, t, d));
	else
		a = cls->parse(s, t, d);
	if (a && hg_alloc_lost()) {
		cls->free_action(a);
		return NULL;
	}
	return a;
}

static inline int hg_engine_apply(const hg_game_class *cls, hg_state *s, const hg_action *a,
				  hg_diags *d)
{
	int rc;
	if (!hg_engine_reports(cls, HG_REPORTS_APPLY))
		HG_PAUSED(rc = cls->apply(s, a, d));
	else
		rc = cls->apply(s, a, d);
	/* (a diagnostic dropped makes the verdict unsure, whatever rc says) */
	return hg_alloc_lost() ? HG_ENOMEM : rc;
}

/* 0, or HG_ENOMEM with the list emptied (its actions freed). */
static inline int hg_engine_legal(const hg_game_class *cls, const hg_state *s,
				  hg_action_list *out)
{
	if (!hg_engine_reports(cls, HG_REPORTS_LEGAL))
		HG_PAUSED(cls->legal(s, out));
	else
		cls->legal(s, out);
	if (!hg_alloc_lost())
		return 0;
	for (size_t i = 0; i < out->n; i++)
		cls->free_action(out->v[i]);
	out->n = 0;
	return HG_ENOMEM;
}

/* 0, or HG_ENOMEM with out cut short (what it holds is not the whole
 * picture). */
static inline int hg_engine_render(const hg_game_class *cls, const hg_state *s, hg_buf *out)
{
	if (!hg_engine_reports(cls, HG_REPORTS_RENDER))
		HG_PAUSED(cls->render(s, out));
	else
		cls->render(s, out);
	return hg_alloc_lost() ? HG_ENOMEM : 0;
}

#endif
