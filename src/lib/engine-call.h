/* engine-call.h - the core's calls of an engine's callbacks inside a unit
 * of work that reports allocation failure (doc/design-apply.md, section 3).
 *
 * A callback whose bit the class sets (hg_game_class.reports_enomem) runs
 * in the unit; when an allocation failed while it ran, whatever it
 * returned, the call ends as its contract says (each wrapper below says
 * which): setup, clone and parse in NULL (what they returned freed),
 * apply in HG_ENOMEM (the state spoiled, as after -1), legal in an empty
 * list; the callbacks that write (render, format, chance_fill,
 * resign_result, pending_finish, pending_steps, view_action) in HG_ENOMEM
 * with their output cut short, which the caller drops; gen_tags,
 * chance_split and the other pending_* callbacks in HG_ENOMEM, what they
 * filled dropped by the caller (a pending action freed).  Said here once,
 * not in each engine.  A callback whose bit is clear runs paused: its
 * hg_x* and hg_try_* abort short of memory as they always have, but the
 * library's public functions it calls (a buffer, a diagnostic, a tag)
 * report to the unit, and the call ends the same way.  Outside a unit
 * each is the plain call.
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

/* 0, or HG_ENOMEM with seat and body cut short (not the action's
 * spelling). */
static inline int hg_engine_format(const hg_game_class *cls, const hg_state *s,
				   const hg_action *a, hg_buf *seat, hg_buf *body)
{
	if (!hg_engine_reports(cls, HG_REPORTS_FORMAT)) {
		HG_PAUSED(cls->format(s, a, seat, body));
		return 0;
	}
	cls->format(s, a, seat, body);
	return hg_alloc_lost() ? HG_ENOMEM : 0;
}

/* gen_tags' 0 or -1, or HG_ENOMEM with the record's tags incomplete (the
 * caller frees the record). */
static inline int hg_engine_gen_tags(const hg_game_class *cls, const hg_gdata *data,
				     hg_prng *r, unsigned players, const char *variant,
				     hg_game_record *rec, hg_diags *d)
{
	int rc;
	if (!hg_engine_reports(cls, HG_REPORTS_GEN_TAGS)) {
		HG_PAUSED(rc = cls->gen_tags(data, r, players, variant, rec, d));
		return rc;
	}
	rc = cls->gen_tags(data, r, players, variant, rec, d);
	return hg_alloc_lost() ? HG_ENOMEM : rc;
}

/* 0 with the length of body's decided part in *split (all of it for a
 * class without chance_split), or HG_ENOMEM. */
static inline int hg_engine_chance_split(const hg_game_class *cls, const hg_state *s,
					 const char *seat, const char *body, size_t *split)
{
	if (!cls->chance_split) {
		*split = strlen(body);
		return 0;
	}
	if (!hg_engine_reports(cls, HG_REPORTS_CHANCE_SPLIT)) {
		HG_PAUSED(*split = cls->chance_split(s, seat, body));
		return 0;
	}
	*split = cls->chance_split(s, seat, body);
	return hg_alloc_lost() ? HG_ENOMEM : 0;
}

/* 0 (nothing written for a class without chance_fill), or HG_ENOMEM with
 * out cut short. */
static inline int hg_engine_chance_fill(const hg_game_class *cls, const hg_state *s,
					const char *seat, const char *body, hg_buf *out)
{
	if (!cls->chance_fill)
		return 0;
	if (!hg_engine_reports(cls, HG_REPORTS_CHANCE_FILL)) {
		HG_PAUSED(cls->chance_fill(s, seat, body, out));
		return 0;
	}
	cls->chance_fill(s, seat, body, out);
	return hg_alloc_lost() ? HG_ENOMEM : 0;
}

/* The engine's resign_result (the class has one): 0, or HG_ENOMEM with
 * out cut short. */
static inline int hg_engine_resign_result(const hg_game_class *cls, const hg_state *s,
					  unsigned seat, hg_buf *out)
{
	if (!hg_engine_reports(cls, HG_REPORTS_RESIGN_RESULT)) {
		HG_PAUSED(cls->resign_result(s, seat, out));
		return 0;
	}
	cls->resign_result(s, seat, out);
	return hg_alloc_lost() ? HG_ENOMEM : 0;
}

/* pending_open's 1, 0 or -1, or HG_ENOMEM with p freed (empty). */
static inline int hg_engine_pending_open(const hg_game_class *cls, const hg_state *s,
					 const char *seat, const char *body, hg_pending *p,
					 hg_diags *d)
{
	int rc;
	if (!hg_engine_reports(cls, HG_REPORTS_PENDING_OPEN)) {
		HG_PAUSED(rc = cls->pending_open(s, seat, body, p, d));
		return rc;
	}
	rc = cls->pending_open(s, seat, body, p, d);
	if (!hg_alloc_lost())
		return rc;
	hg_pending_free(p);
	return HG_ENOMEM;
}

/* pending_answer's 0 or -1, or HG_ENOMEM with p part changed (the caller
 * drops it: the record and the secret keep the pending action). */
static inline int hg_engine_pending_answer(const hg_game_class *cls, const hg_state *s,
					   hg_pending *p, const char *seat, const char *text,
					   hg_diags *d)
{
	int rc;
	if (!hg_engine_reports(cls, HG_REPORTS_PENDING_ANSWER)) {
		HG_PAUSED(rc = cls->pending_answer(s, p, seat, text, d));
		return rc;
	}
	rc = cls->pending_answer(s, p, seat, text, d);
	return hg_alloc_lost() ? HG_ENOMEM : rc;
}

/* pending_finish's 0 or -1, or HG_ENOMEM with body cut short. */
static inline int hg_engine_pending_finish(const hg_game_class *cls, const hg_state *s,
					   const hg_pending *p, hg_buf *body, hg_diags *d)
{
	int rc;
	if (!hg_engine_reports(cls, HG_REPORTS_PENDING_FINISH)) {
		HG_PAUSED(rc = cls->pending_finish(s, p, body, d));
		return rc;
	}
	rc = cls->pending_finish(s, p, body, d);
	return hg_alloc_lost() ? HG_ENOMEM : rc;
}

/* 0, or HG_ENOMEM with out cut short. */
static inline int hg_engine_pending_steps(const hg_game_class *cls, const hg_state *s,
					  const hg_pending *p, const char *seat, hg_buf *out)
{
	if (!hg_engine_reports(cls, HG_REPORTS_PENDING_STEPS)) {
		HG_PAUSED(cls->pending_steps(s, p, seat, out));
		return 0;
	}
	cls->pending_steps(s, p, seat, out);
	return hg_alloc_lost() ? HG_ENOMEM : 0;
}

/* 0, or HG_ENOMEM with seat_out and body cut short. */
static inline int hg_engine_view_action(const hg_game_class *cls, const hg_state *before,
					const hg_state *after, const hg_action *a,
					unsigned seat, hg_buf *seat_out, hg_buf *body)
{
	if (!hg_engine_reports(cls, HG_REPORTS_VIEW_ACTION)) {
		HG_PAUSED(cls->view_action(before, after, a, seat, seat_out, body));
		return 0;
	}
	cls->view_action(before, after, a, seat, seat_out, body);
	return hg_alloc_lost() ? HG_ENOMEM : 0;
}

#endif
