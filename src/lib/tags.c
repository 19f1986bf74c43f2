/* tags.c - the rules on a game's tag pairs (herald-notation(5), rules T2
 * to T4), judged once the parser has read them. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tags.h"

void hg_bad_tags_add(hg_bad_tags *b, const char *name)
{
	/* without memory the name is not kept (its unit of work fails) */
	char **names = hg_try_realloc(b->names, (b->n + 1) * sizeof *b->names);
	if (!names)
		return;
	b->names = names;
	char *copy = hg_try_strdup(name);
	if (copy)
		b->names[b->n++] = copy;
}

int hg_bad_tags_has(const hg_bad_tags *b, const char *name)
{
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->names[i], name) == 0)
			return 1;
	return 0;
}

void hg_bad_tags_clear(hg_bad_tags *b)
{
	hg_strv_free(b->names, b->n);
	b->names = NULL;
	b->n = 0;
}

/* What the checks of one game's tag section look at. */
typedef struct section {
	hg_lexer *lx;
	const hg_tagset *set;
	const hg_bad_tags *bad;
	int over;
} section;

static int leap_year(unsigned y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Parses n digits or n '?'; returns the value, -1 for unknown, -2 for bad. */
static long date_part(const char *s, size_t n)
{
	size_t q = 0, dg = 0;
	long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '?')
			q++;
		else if (s[i] >= '0' && s[i] <= '9') {
			dg++;
			v = v * 10 + (s[i] - '0');
		}
	}
	if (q == n)
		return -1;
	return dg == n ? v : -2;
}

/* One part of a date written loosely: 1 to `max` digits, or '?' or "??"
 * for a two-digit part; written into out as `width` characters, zero-padded.
 * Returns the characters read, 0 when the part is not one. */
static size_t loose_part(const char *s, size_t max, size_t width, char *out)
{
	size_t n = 0, q = 0;
	while (n < max && s[n] >= '0' && s[n] <= '9')
		n++;
	if (n == 0)
		while (q < max && s[q] == '?')
			q++;
	if (q) {
		if (width == 4 && q != 4)
			return 0;
		memset(out, '?', width);
		return q;
	}
	if (n == 0 || (width == 4 && n != 4))
		return 0;
	memset(out, '0', width - n);
	memcpy(out + width - n, s, n);
	return n;
}

/* A date with a small slip in its form -- one-digit month or day, '-' or
 * '/' between the parts (2026.5.1, 2026-05-01) -- in canonical form in
 * canon; 0 when s is not year, month and day in that order. */
static int date_loose(const char *s, char canon[11])
{
	size_t n = loose_part(s, 4, 4, canon);
	if (!n)
		return 0;
	s += n;
	char sep = *s;
	if (sep != '.' && sep != '-' && sep != '/')
		return 0;
	if (!(n = loose_part(++s, 2, 2, canon + 5)))
		return 0;
	s += n;
	if (*s != sep || !(n = loose_part(++s, 2, 2, canon + 8)) || s[n] != '\0')
		return 0;
	canon[4] = canon[7] = '.';
	canon[10] = '\0';
	return 1;
}

/* The Date tag (rule T3): YYYY.MM.DD with '?' for unknown parts.  A small
 * slip in the form is a warning with the canonical form suggested: the
 * game is still replayed and judged. */
void hg_tags_check_date(hg_lexer *lx, const hg_tag *tag)
{
	static const char *const months[] = {
		"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"
	};
	static const int days[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	const char *s = tag->value;
	char canon[11];
	const char *form = s;
	int slip = strcmp(s, "") != 0 && date_loose(s, canon) && strcmp(canon, s) != 0;
	if (slip)
		form = canon;
	long y = -2, m = -2, dd = -2;
	if (strlen(form) == 10 && form[4] == '.' && form[7] == '.') {
		y = date_part(form, 4);
		m = date_part(form + 5, 2);
		dd = date_part(form + 8, 2);
	}
	hg_diag *dg = NULL;
	if (y == -2 || m == -2 || dd == -2) {
		dg = hg_lexer_error(lx, tag->pos, "hgn.bad-date", "bad date '%s'", s);
	} else if (m == 0 || m > 12) {
		dg = hg_lexer_error(lx, tag->pos, "hgn.bad-date", "bad date '%s': there is no month %ld",
			   s, m);
	} else if (dd == 0 || dd > 31) {
		dg = hg_lexer_error(lx, tag->pos, "hgn.bad-date", "bad date '%s': there is no day %ld",
			   s, dd);
	} else if (m > 0 && dd > 0) {
		long max = days[m - 1];
		if (m == 2 && y >= 0 && !leap_year((unsigned)y))
			max = 28;
		if (dd > max) {
			if (m == 2 && y >= 0)
				dg = hg_lexer_error(lx, tag->pos, "hgn.bad-date",
					   "bad date '%s': February %ld has %ld days", s, y, max);
			else
				dg = hg_lexer_error(lx, tag->pos, "hgn.bad-date",
					   "bad date '%s': %s has %ld days", s, months[m - 1], max);
		}
	}
	if (!dg) {
		if (slip) {
			hg_diag *w = hg_lexer_warning(lx, tag->pos, "hgn.date-form",
						      "date '%s' is not written YYYY.MM.DD", s);
			if (w)
				hg_diag_note(w, "write it \"%s\"", canon);
		}
		return;
	}
	if (dg)
		hg_diag_note(dg, "a date is written YYYY.MM.DD, with '?' for each unknown digit of a part, as in \"2026.11.??\"");
}

/* A name from Players or a Seat tag may not be empty (rule T4). */
static int blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* "Seat" and a positive number without leading zeros; 0 otherwise. */
static unsigned long seat_tag_number(const char *name)
{
	if (strncmp(name, "Seat", 4) != 0 || name[4] < '1' || name[4] > '9')
		return 0;
	unsigned long v = 0;
	for (const char *s = name + 4; *s; s++) {
		if (*s < '0' || *s > '9' || v > 99999999)
			return 0;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	return v;
}

static void check_players(const section *s, const hg_game_record *g)
{
	const hg_tag *players = hg_record_tag(g, "Players");
	if (players && !hg_bad_tags_has(s->bad, "Players")) {
		const char *name = players->value;
		for (;;) {
			const char *semi = strchr(name, ';');
			size_t n = semi ? (size_t)(semi - name) : strlen(name);
			if (blank(name, n)) {
				hg_diag *dg = hg_lexer_error(s->lx, players->pos, "hgn.bad-players",
						    "empty player name in the Players tag '%s'",
						    players->value);
				if (dg)
					hg_diag_note(dg, "the players are named in seat order, separated by ';', as in \"Ana; Ben\"");
				break;
			}
			if (!semi)
				break;
			name = semi + 1;
		}
	}
	for (size_t i = 0; i < g->ntags; i++) {
		const hg_tag *tag = &g->tags[i];
		unsigned long n = seat_tag_number(tag->name);
		if (n == 0)
			continue;
		if (blank(tag->value, strlen(tag->value)))
			hg_lexer_error(s->lx, tag->pos, "hgn.bad-players", "empty player name in the tag '%s'",
			      tag->name);
		if (n > 1) {
			char prev[32];
			snprintf(prev, sizeof prev, "Seat%lu", n - 1);
			if (hg_tagset_find(s->set, prev) == HG_TAGSET_NONE &&
			    !hg_bad_tags_has(s->bad, prev) && !s->over) {
				hg_diag *dg = hg_lexer_error(s->lx, tag->pos, "hgn.bad-players",
						    "tag '%s' without '%s'", tag->name, prev);
				if (dg)
					hg_diag_note(dg, "seat tags are numbered from Seat1 without gaps");
			}
		}
	}
}

static void missing_tag(const section *s, const hg_game_record *g, const char *name,
			const char *what, const char *example)
{
	/* past the limit, the tag may be among those dropped */
	if (hg_record_tag(g, name) || hg_bad_tags_has(s->bad, name) || s->over)
		return;
	hg_diag *dg = hg_lexer_error(s->lx, g->pos, "hgn.missing-tag", "missing required tag %s", what);
	if (!dg)
		return;
	for (size_t i = 0; i < g->ntags; i++)
		if (strcasecmp(g->tags[i].name, name) == 0 &&
		    strcmp(g->tags[i].name, name) != 0) {
			hg_diag_note(dg, "tag names are case-sensitive: '%s' is not '%s'",
				     g->tags[i].name, name);
			return;
		}
	hg_diag_note(dg, "for example %s", _(example));
}

/* The required tags (rule T2), once the tag section is over. */
void hg_tags_check_section(hg_lexer *lx, const hg_game_record *g, const hg_tagset *set,
			   const hg_bad_tags *bad, int over)
{
	const section sec = { lx, set, bad, over }, *s = &sec;
	if (g->ntags == 0 && s->bad->n == 0) {
		hg_diag *dg = hg_lexer_error(s->lx, g->pos, "hgn.missing-tag",
				    "missing required tags 'Game', 'Date', 'Players' and 'Result': the game has no tag pairs");
		if (dg)
			hg_diag_note(dg, "a game begins with its tag pairs, as in [Game \"kingdoms-of-crusaders\"]");
		return;
	}
	missing_tag(s, g, "Game", "'Game'", "[Game \"kingdoms-of-crusaders\"]");
	/* the examples are translated where they are shown */
	missing_tag(s, g, "Date", "'Date'", N_("[Date \"2026.11.21\"], or [Date \"????.??.??\"] when unknown"));
	if (!hg_record_tag(g, "Players") && !hg_bad_tags_has(s->bad, "Players"))
		missing_tag(s, g, "Seat1", _("'Players' (or 'Seat1', 'Seat2', ...)"),
			    "[Players \"Ana; Ben\"]");
	missing_tag(s, g, "Result", "'Result'", N_("[Result \"*\"] for a game without a result"));
	check_players(s, g);
}
