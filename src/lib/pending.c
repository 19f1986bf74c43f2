/* pending.c - an action held pending while other seats answer within it
 * (herald-move(1), PENDING ACTIONS).  What every seat may know of it goes
 * into the record's tags:
 *
 *   [Pending "damasco: attack baalbek from homs"]
 *   [PendingAwaits "alepo, jerusalen"]
 *   [PendingFaceDown "damasco 4, antioquia 0"]
 *
 * and each part's decisions (the cards put down face down) into the
 * master's secret file beside the key file, whose lines are
 *
 *   herald-pending 1
 *   commit <SeedCommit>
 *   actions <the main line's actions when it was written>
 *   part <seat> <cards face down> <text>
 *
 * so that a file left from another game or another position is refused
 * rather than played.
 *
 * Inside a unit of work that reports allocation failure (the game
 * master's calls) each function here allocates with hg_try_* and reports
 * a failure (-1 or HG_ENOMEM) rather than abort; outside one it aborts as
 * it always has. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void hg_pending_free(hg_pending *p)
{
	free(p->seat);
	free(p->declared);
	for (size_t i = 0; i < p->nparts; i++) {
		free(p->parts[i].seat);
		free(p->parts[i].text);
	}
	free(p->parts);
	hg_strv_free(p->awaited, p->nawaited);
	memset(p, 0, sizeof *p);
}

int hg_pending_set_part(hg_pending *p, const char *seat, const char *text, int face_down)
{
	size_t i = 0;
	while (i < p->nparts && strcmp(p->parts[i].seat, seat) != 0)
		i++;
	char *copy = text ? hg_try_strdup(text) : NULL;
	if (text && !copy)
		return -1;
	if (i == p->nparts) {
		char *name = hg_try_strdup(seat);
		hg_pending_part *parts = name ? hg_try_realloc(p->parts, (p->nparts + 1) * sizeof *p->parts)
					      : NULL;
		if (!parts) {
			free(name);
			free(copy);
			return -1;
		}
		p->parts = parts;
		p->parts[p->nparts].seat = name;
		p->parts[p->nparts++].text = NULL;
	}
	free(p->parts[i].text);
	p->parts[i].text = copy;
	p->parts[i].face_down = face_down;
	for (size_t k = 0; k < p->nawaited; k++)
		if (strcmp(p->awaited[k], seat) == 0) {
			free(p->awaited[k]);
			memmove(p->awaited + k, p->awaited + k + 1,
				(p->nawaited - k - 1) * sizeof *p->awaited);
			p->nawaited--;
			break;
		}
	return 0;
}

int hg_pending_await(hg_pending *p, const char *seat)
{
	if (hg_pending_awaits(p, seat))
		return 0;
	char *name = hg_try_strdup(seat);
	char **awaited = name ? hg_try_realloc(p->awaited, (p->nawaited + 1) * sizeof *p->awaited)
			      : NULL;
	if (!awaited) {
		free(name);
		return -1;
	}
	p->awaited = awaited;
	p->awaited[p->nawaited++] = name;
	return 0;
}

int hg_pending_awaits(const hg_pending *p, const char *seat)
{
	for (size_t k = 0; k < p->nawaited; k++)
		if (hg_name_eq(p->awaited[k], seat))
			return 1;
	return 0;
}

/* The next item of a ", "-separated list: its bytes from *at to the
 * comma (blanks trimmed), *at moved past it, into *item (NULL short of
 * memory); 0 at the end. */
static int next_item(const char **at, char **item)
{
	const char *s = *at;
	while (*s == ' ' || *s == ',')
		s++;
	if (!*s)
		return 0;
	const char *end = strchr(s, ',');
	if (!end)
		end = s + strlen(s);
	*at = end;
	while (end > s && end[-1] == ' ')
		end--;
	*item = hg_try_strndup(s, (size_t)(end - s));
	return 1;
}

/* A part of `seat`, its text the secret's (NULL until read): 0 or -1. */
static int add_face_down(hg_pending *p, const char *seat, int face_down)
{
	char *name = hg_try_strdup(seat);
	hg_pending_part *parts = name ? hg_try_realloc(p->parts, (p->nparts + 1) * sizeof *p->parts)
				      : NULL;
	if (!parts) {
		free(name);
		return -1;
	}
	p->parts = parts;
	p->parts[p->nparts].seat = name;
	p->parts[p->nparts].text = NULL;
	p->parts[p->nparts++].face_down = face_down;
	return 0;
}

int hg_pending_from_tags(const hg_game_record *rec, hg_pending *p)
{
	memset(p, 0, sizeof *p);
	const char *what = hg_record_tag_value(rec, "Pending");
	const char *colon = what ? strchr(what, ':') : NULL;
	if (!colon)
		return 0;
	p->seat = hg_try_strndup(what, (size_t)(colon - what));
	colon++;
	while (*colon == ' ')
		colon++;
	p->declared = hg_try_strdup(colon);
	int ok = p->seat && p->declared;
	const char *at = hg_record_tag_value(rec, "PendingAwaits");
	char *item;
	while (ok && at && next_item(&at, &item)) {
		ok = item && hg_pending_await(p, item) == 0;
		free(item);
	}
	at = hg_record_tag_value(rec, "PendingFaceDown");
	while (ok && at && next_item(&at, &item)) {
		char *space = item ? strrchr(item, ' ') : NULL;
		ok = item != NULL;
		if (space) {
			*space = '\0';
			/* a count from the record: bounded, whatever it says */
			long count = strtol(space + 1, NULL, 10);
			ok = add_face_down(p, item, count < 0 ? 0 : count > 9999 ? 9999 : (int)count) == 0;
		}
		free(item);
	}
	if (!ok) {
		hg_pending_free(p);
		return HG_ENOMEM;
	}
	return 1;
}

int hg_pending_to_tags(hg_game_record *rec, const hg_pending *p)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_printf(&b, "%s: %s", p->seat, p->declared);
	int rc = hg_buf_failed(&b) ? -1 : hg_record_try_set_tag(rec, "Pending", b.data);
	hg_buf_clear(&b);
	hg_buf_join(&b, p->awaited, p->nawaited, ", ");
	if (rc == 0)
		rc = hg_buf_failed(&b) ? -1 :
		     hg_record_try_set_tag(rec, "PendingAwaits", b.data ? b.data : "");
	hg_buf_clear(&b);
	for (size_t i = 0; i < p->nparts; i++)
		hg_buf_printf(&b, "%s%s %d", i ? ", " : "", p->parts[i].seat, p->parts[i].face_down);
	if (rc == 0)
		rc = hg_buf_failed(&b) ? -1 :
		     hg_record_try_set_tag(rec, "PendingFaceDown", b.data ? b.data : "");
	hg_buf_free(&b);
	return rc == 0 ? 0 : HG_ENOMEM;
}

void hg_pending_summary(const hg_pending *p, hg_buf *out)
{
	hg_buf_printf(out, "pending: %s: %s\nface down:", p->seat, p->declared);
	for (size_t i = 0; i < p->nparts; i++)
		hg_buf_printf(out, "%s %s %d", i ? "," : "", p->parts[i].seat, p->parts[i].face_down);
	hg_buf_puts(out, "\nawaiting:");
	if (p->nawaited) {
		hg_buf_putc(out, ' ');
		hg_buf_join(out, p->awaited, p->nawaited, ", ");
	}
	hg_buf_putc(out, '\n');
}

void hg_pending_clear_tags(hg_game_record *rec)
{
	hg_record_remove_tag(rec, "Pending");
	hg_record_remove_tag(rec, "PendingAwaits");
	hg_record_remove_tag(rec, "PendingFaceDown");
}

int hg_pending_secret_make(hg_pending_secret *s, const char *path, const char *commit,
			   size_t nactions, const hg_pending *p)
{
	s->path = path;
	hg_buf_init(&s->text);
	hg_buf_printf(&s->text, "herald-pending 1\ncommit %s\nactions %zu\n", commit, nactions);
	for (size_t i = 0; i < p->nparts; i++)
		hg_buf_printf(&s->text, "part %s %d %s\n", p->parts[i].seat, p->parts[i].face_down,
			      p->parts[i].text ? p->parts[i].text : "");
	if (hg_buf_failed(&s->text)) {
		hg_buf_free(&s->text);
		errno = ENOMEM;
		return -1;
	}
	if (hg_atomic_names_make(&s->names, path) != 0) {
		int e = errno;
		hg_buf_free(&s->text);
		errno = e;
		return -1;
	}
	return 0;
}

int hg_pending_secret_put(hg_pending_secret *s)
{
	/* The atomic write keeps the mode of the file it replaces: one made
	 * (or left) here with mode 0600 first, so that the secret is never
	 * readable by others, not even for a moment. */
	int rc = -1, fd = open(s->path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0 && fchmod(fd, 0600) == 0 && close(fd) == 0)
		rc = hg_atomic_write(&s->names, s->text.data ? s->text.data : "", s->text.len);
	else if (fd >= 0)
		close(fd);
	return rc;
}

void hg_pending_secret_free(hg_pending_secret *s)
{
	hg_atomic_names_free(&s->names);
	hg_buf_free(&s->text);
}

int hg_pending_secret_write(const char *path, const char *commit, size_t nactions,
			    const hg_pending *p)
{
	hg_pending_secret s;
	if (hg_pending_secret_make(&s, path, commit, nactions, p) != 0)
		return -1;
	int rc = hg_pending_secret_put(&s);
	int e = errno;
	hg_pending_secret_free(&s);
	errno = e;
	return rc;
}

static hg_pos file_pos(const char *path)
{
	hg_pos p = { path, 0, 0 };
	return p;
}

int hg_pending_secret_read(const char *path, const char *commit, size_t nactions,
			   hg_pending *p, hg_diags *d)
{
	hg_buf text;
	hg_buf_init(&text);
	FILE *f = fopen(path, "re");
	if (!f) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, file_pos(path), "master.pending",
					  "the record holds a pending action, but its secret cannot be read: %s",
					  strerror(errno));
		hg_diag_note(dg, "the organiser may end the game ('herald end')");
		return -1;
	}
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && text.len < HG_MAX_LINE * 16 &&
	       !hg_buf_failed(&text))
		hg_buf_putn(&text, chunk, n);
	fclose(f);
	if (hg_buf_failed(&text)) {
		hg_buf_free(&text);
		return HG_ENOMEM;
	}
	int header = 0, commit_ok = 0, count_ok = 0, lost = 0;
	char *save = NULL;
	for (char *line = strtok_r(text.data ? text.data : (char[]){ "" }, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strcmp(line, "herald-pending 1") == 0) {
			header = 1;
		} else if (strncmp(line, "commit ", 7) == 0) {
			commit_ok = strcmp(line + 7, commit) == 0;
		} else if (strncmp(line, "actions ", 8) == 0) {
			count_ok = strtoull(line + 8, NULL, 10) == nactions;
		} else if (strncmp(line, "part ", 5) == 0) {
			char *seat = line + 5, *sp = strchr(seat, ' ');
			if (!sp)
				continue;
			*sp = '\0';
			char *rest;
			long count = strtol(sp + 1, &rest, 10);
			if (count < 0 || count > 9999)
				count = 0;
			if (*rest == ' ')
				rest++;
			for (size_t i = 0; i < p->nparts; i++)
				if (strcmp(p->parts[i].seat, seat) == 0 && !p->parts[i].text) {
					p->parts[i].text = hg_try_strdup(rest);
					lost |= !p->parts[i].text;
					p->parts[i].face_down = (int)count;
				}
		}
	}
	hg_buf_free(&text);
	if (lost)
		return HG_ENOMEM;	/* (p is the caller's to free, as always) */
	int whole = header && commit_ok && count_ok;
	for (size_t i = 0; i < p->nparts && whole; i++)
		whole = p->parts[i].text != NULL;
	if (!whole) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, file_pos(path), "master.pending",
					  "the pending action's secret is not this game's, or not of this position");
		hg_diag_note(dg, "the organiser may end the game ('herald end')");
		return -1;
	}
	return 0;
}
