/* datafile.c - the data files a record names: where they may come from,
 * how they are opened, and what a diagnostic may say about them
 * (herald-check(1), HOSTILE INPUT).
 *
 * A record is untrusted, and so is every file it names.  Such a file must
 * resolve, links followed, inside a directory the user chose to read data
 * from: the record's own directory, a directory of the data path, or one
 * given with --allow-data-path.  It is then opened from that directory
 * down, one component at a time, following no link, so that a link
 * swapped in after the check cannot lead out; and it must be a regular
 * file (a FIFO would hang the reader, a device never end).  A name that
 * leads nowhere allowed gets the message a missing file gets: the answer
 * must not tell whether some file outside exists.  Until the file is
 * recognised as the kind of data file expected, nothing of its content is
 * quoted: a record must not be able to make herald print another file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* The directories a record's data files may come from, each resolved. */
typedef struct roots {
	char **v;
	size_t n;
} roots;

static void roots_add(roots *r, const char *dir)
{
	char *real = dir ? realpath(dir, NULL) : NULL;
	if (!real)
		return;
	char **v = hg_try_realloc(r->v, (r->n + 1) * sizeof *r->v);
	if (!v) {	/* the directory is left out, the unit of work told */
		free(real);
		return;
	}
	r->v = v;
	r->v[r->n++] = real;
}

/* A file a record names may come from the record's directory; one that a
 * data file names, from that file's directory (not the record's: what a
 * file loads is then the same for every record that names it). */
static void roots_init(roots *r, const hg_load_ctx *ctx, const hg_data_name *n)
{
	r->v = NULL;
	r->n = 0;
	roots_add(r, n->base_dir ? n->base_dir : ctx->record_dir);
	const hg_datapath *p = ctx->path;
	for (size_t i = 0; p && i < p->n; i++)
		roots_add(r, p->dirs[i]);
	for (size_t i = 0; p && i < p->nallowed; i++)
		roots_add(r, p->allowed[i]);
}

static void roots_free(roots *r)
{
	hg_strv_free(r->v, r->n);
}

/* Is the resolved path `real` inside the resolved directory `root`? */
static int under(const char *root, const char *real)
{
	size_t n = strlen(root);
	if (n == 1 && root[0] == '/')
		return real[0] == '/';
	return strncmp(real, root, n) == 0 && real[n] == '/';
}

/* The resolved path of `candidate` when it is inside a root (*root gets
 * that root), else NULL. */
static char *inside(const roots *r, const char *candidate, const char **root)
{
	char *real = realpath(candidate, NULL);
	if (!real)
		return NULL;
	for (size_t i = 0; i < r->n; i++)
		if (under(r->v[i], real)) {
			*root = r->v[i];
			return real;
		}
	free(real);
	return NULL;
}

/* The first place `n` names that is inside a root: its resolved path, the
 * root, and (in *shown) the name diagnostics call it by. */
static char *locate(const hg_load_ctx *ctx, const roots *r, const hg_data_name *n,
		    const char **root, char **shown)
{
	const char *base = n->base_dir ? n->base_dir : ctx->record_dir;
	hg_buf cand;
	hg_buf_init(&cand);
	/* "deck.yaml" rather than "./deck.yaml" in diagnostics */
	if (n->name[0] != '/' && base && strcmp(base, ".") != 0)
		hg_buf_printf(&cand, "%s/", base);
	hg_buf_puts(&cand, n->name);
	char *real = inside(r, cand.data, root);
	const hg_datapath *p = ctx->path;
	for (size_t i = 0; !real && n->search && n->name[0] != '/' && p && i < p->n; i++) {
		hg_buf_clear(&cand);
		hg_buf_printf(&cand, "%s/%s%s%s", p->dirs[i], n->search, *n->search ? "/" : "",
			      n->name);
		real = inside(r, cand.data, root);
	}
	if (real)
		*shown = hg_buf_steal(&cand);
	hg_buf_free(&cand);
	return real;
}

/* Directories are opened only to look names up in them: where the system
 * allows, without asking to read them (search permission is enough). */
#ifdef O_PATH
#define DIR_OPEN_FLAGS (O_PATH | O_DIRECTORY | O_CLOEXEC)
#else
#define DIR_OPEN_FLAGS (O_RDONLY | O_DIRECTORY | O_CLOEXEC)
#endif

/* Opens `real` (inside `root`) from the root down, one component at a
 * time and following no link.  A descriptor, or -1 with errno set. */
static int open_beneath(const char *root, const char *real)
{
	int dir = open(root, DIR_OPEN_FLAGS);
	if (dir < 0)
		return -1;
	const char *rest = real + strlen(root);
	for (;;) {
		while (*rest == '/')
			rest++;
		const char *slash = strchr(rest, '/');
		char *part = slash ? hg_try_strndup(rest, (size_t)(slash - rest)) : hg_try_strdup(rest);
		if (!part) {
			close(dir);
			errno = ENOMEM;
			return -1;
		}
		/* O_NONBLOCK: a FIFO opens at once, and fstat then refuses it. */
		int flags = slash ? DIR_OPEN_FLAGS | O_NOFOLLOW
				  : O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
		int fd = *part ? openat(dir, part, flags) : -1;
		int err = *part ? errno : EISDIR;
		free(part);
		close(dir);
		if (fd < 0) {
			errno = err;
			return -1;
		}
		if (!slash)
			return fd;
		dir = fd;
		rest = slash + 1;
	}
}

typedef enum opened {
	OPENED,
	NOT_FOUND,	/* nowhere allowed: not there, outside, or a dangling link */
	NOT_REGULAR,
	TOO_LARGE
} opened;

/* Finds and opens the file `n` names: *fd, *st and *shown on OPENED. */
static opened open_named(const hg_load_ctx *ctx, const hg_data_name *n, int *fd,
			 struct stat *st, char **shown)
{
	roots r;
	roots_init(&r, ctx, n);
	const char *root = NULL;
	char *real = locate(ctx, &r, n, &root, shown);
	opened how = NOT_FOUND;
	*fd = real ? open_beneath(root, real) : -1;
	if (*fd >= 0) {
		how = OPENED;
		if (fstat(*fd, st) != 0 || !S_ISREG(st->st_mode))
			how = NOT_REGULAR;
		else if ((uint64_t)st->st_size > HG_DATA_FILE_MAX_BYTES)
			how = TOO_LARGE;
		if (how != OPENED) {
			close(*fd);
			*fd = -1;
		}
	}
	if (how != OPENED && real) {
		free(*shown);
		*shown = NULL;
	}
	free(real);
	roots_free(&r);
	return how;
}

int hg_data_identify(const hg_load_ctx *ctx, const hg_data_name *n, hg_data_id *id)
{
	int fd;
	struct stat st;
	char *shown = NULL;
	if (open_named(ctx, n, &fd, &st, &shown) != OPENED)
		return -1;
	close(fd);
	free(shown);
	id->dev = (uint64_t)st.st_dev;
	id->ino = (uint64_t)st.st_ino;
	return 0;
}

/* Reads the whole file, at most `max` bytes: 0, 1 when it holds more, or
 * -1 with errno set. */
static int read_capped(int fd, size_t max, hg_buf *out)
{
	char chunk[65536];
	for (;;) {
		ssize_t got = read(fd, chunk, sizeof chunk);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			return 0;
		hg_buf_putn(out, chunk, (size_t)got);
		if (out->len > max)
			return 1;
	}
}

static void where_note(hg_diag *dg, const hg_data_name *n)
{
	const char *beside = n->base_dir ? _("the file that names it") : _("the record");
	if (n->search && *n->search)
		hg_diag_note(dg, "it is looked for beside %s, then under '%s' along the data path",
			     beside, n->search);
	else if (n->search)
		hg_diag_note(dg, "it is looked for beside %s, then along the data path", beside);
	else
		hg_diag_note(dg, "it is looked for beside %s", beside);
	hg_diag_note(dg, "a data file a record names must be a regular file inside the "
		     "record's directory, the data path (--data-dir, HERALD_DATA_PATH, the "
		     "installed data) or a directory given with --allow-data-path");
}

static void not_recognised(const hg_data_name *n, const hg_data_kind *kind, hg_diags *d)
{
	hg_buf q, keys;
	hg_buf_init(&q);
	hg_buf_init(&keys);
	hg_quote(&q, n->name);
	for (size_t i = 0; kind->keys[i]; i++)
		hg_buf_printf(&keys, "%s'%s'", i ? ", " : "",
			      kind->keys[i] + (kind->keys[i][0] == '!'));
	/* TRANSLATORS: the first %s is the file's name, the second what names
	   it ("the DeckFile tag"), the third the kind of file ("a deck file"). */
	hg_diag *dg = hg_diag_add(d, HG_ERROR, n->pos, "data.file", "data file %s (%s) is not %s",
				  q.data, _(n->named_by), _(kind->what));
	/* TRANSLATORS: the first %s is the kind of file ("a deck file"), the
	   second the list of its keys. */
	hg_diag_note(dg, "%s is a YAML mapping with the keys %s; until a file a record names "
		     "is recognised as one, herald quotes nothing from it", _(kind->what), keys.data);
	hg_buf_free(&q);
	hg_buf_free(&keys);
}

/* Is the document of the kind expected: a mapping with the keys allowed,
 * those required among them? */
static int recognised(const hg_ydoc *doc, const hg_data_kind *kind)
{
	const hg_ynode *root = doc->root;
	if (!root || root->kind != HG_Y_MAP)
		return 0;
	size_t npairs = hg_ymap_len(root);
	for (size_t i = 0; i < npairs; i++) {
		const hg_ynode *k = hg_ymap_key(root, i);
		if (hg_prov_is_key(k->scalar))
			continue;	/* provenance, in any data file */
		size_t j = 0;
		while (kind->keys[j] && strcmp(kind->keys[j] + (kind->keys[j][0] == '!'),
					       k->scalar) != 0)
			j++;
		if (!kind->keys[j])
			return 0;
	}
	for (size_t j = 0; kind->keys[j]; j++)
		if (kind->keys[j][0] == '!' && !hg_ymap_get(root, kind->keys[j] + 1))
			return 0;
	return 1;
}

hg_ydoc *hg_data_load(const hg_load_ctx *ctx, const hg_data_name *n,
		      const hg_data_kind *kind, hg_diags *d)
{
	int fd;
	struct stat st;
	char *shown = NULL;
	opened how = open_named(ctx, n, &fd, &st, &shown);
	hg_buf q;
	hg_buf_init(&q);
	hg_quote(&q, n->name);
	hg_diag *dg = NULL;
	switch (how) {
	case OPENED:
		break;
	case NOT_FOUND:
		dg = hg_diag_add(d, HG_ERROR, n->pos, "data.file", "data file %s (%s) not found",
				 q.data, _(n->named_by));
		where_note(dg, n);
		break;
	case NOT_REGULAR:
		dg = hg_diag_add(d, HG_ERROR, n->pos, "data.file",
				 "data file %s (%s) is not a regular file", q.data, _(n->named_by));
		break;
	case TOO_LARGE:
		hg_diag_add(d, HG_ERROR, n->pos, "data.limit",
			    "data file %s (%s) is larger than %u MiB", q.data, _(n->named_by),
			    HG_DATA_FILE_MAX_BYTES / (1024 * 1024));
		break;
	}
	if (how != OPENED) {
		hg_buf_free(&q);
		return NULL;
	}
	hg_buf text;
	hg_buf_init(&text);
	int rc = read_capped(fd, HG_DATA_FILE_MAX_BYTES, &text);
	int err = errno;
	close(fd);
	hg_ydoc *doc = NULL;
	if (hg_alloc_lost()) {
		/* the name quoted or the text read short: nothing is said
		 * (the unit of work reports it) */
	} else if (rc < 0) {
		hg_diag_add(d, HG_ERROR, n->pos, "data.io", "cannot read the data file %s (%s): %s",
			    q.data, _(n->named_by), strerror(err));
	} else if (rc > 0) {
		hg_diag_add(d, HG_ERROR, n->pos, "data.limit",
			    "data file %s (%s) is larger than %u MiB", q.data, _(n->named_by),
			    HG_DATA_FILE_MAX_BYTES / (1024 * 1024));
	} else {
		/* The loader's own diagnostics quote the file: kept only once
		 * the file is known for a data file of the kind expected. */
		hg_diags quiet;
		hg_diags_init(&quiet);
		doc = hg_yaml_load_mem(shown, text.data ? text.data : "", text.len, &quiet);
		if (!doc || !recognised(doc, kind)) {
			hg_ydoc_free(doc);
			doc = NULL;
			not_recognised(n, kind, d);
			/* A limit met (nodes, nesting) and an anchor are said, in
			 * words that quote nothing of the file. */
			for (size_t i = 0; i < quiet.n; i++) {
				const hg_diag *qd = &quiet.v[i];
				hg_pos at = { qd->file, qd->line, qd->col };
				if (strcmp(qd->code, "data.limit") == 0)
					hg_diag_add(d, HG_ERROR, at, qd->code, "%s", qd->message);
				else if (strcmp(qd->code, "data.alias") == 0)
					hg_diag_add(d, HG_ERROR, at, qd->code,
						    "an anchor or alias, which data files do not use");
			}
		}
		hg_diags_free(&quiet);
	}
	hg_buf_free(&text);
	hg_buf_free(&q);
	free(shown);
	return doc;
}

size_t hg_data_tag_files(const hg_data_tag *t, const char *value, char ***names)
{
	size_t n = 0;
	*names = NULL;
	for (const char *p = value; p;) {
		const char *end = t->list ? strchr(p, ';') : NULL;
		size_t len = end ? (size_t)(end - p) : strlen(p);
		while (len && *p == ' ') {
			p++;
			len--;
		}
		while (len && p[len - 1] == ' ')
			len--;
		if (len || !t->list) {
			/* on a failed allocation, the names so far (the unit of
			 * work reports it) */
			char **v = hg_try_realloc(*names, (n + 1) * sizeof **names);
			if (!v)
				break;
			*names = v;
			if (!(v[n] = hg_try_strndup(p, len)))
				break;
			n++;
		}
		p = end ? end + 1 : NULL;
	}
	return n;
}
