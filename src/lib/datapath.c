/* datapath.c - where game data files are looked for. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

/* Appends the n bytes at dir to the path: 0, or -1 when there is no
 * memory for it (a failure of the caller's unit of work, or an abort
 * outside one: hg_try_*). */
static int add(hg_datapath *p, const char *dir, size_t n)
{
	if (n == 0)
		return 0;
	char *copy = hg_try_strndup(dir, n);
	char **dirs = copy ? hg_try_realloc(p->dirs, (p->n + 1) * sizeof *p->dirs) : NULL;
	if (!dirs) {
		free(copy);
		return -1;
	}
	p->dirs = dirs;
	p->dirs[p->n++] = copy;
	return 0;
}

int hg_datapath_try_init(hg_datapath *p, const char *data_dir)
{
	p->dirs = NULL;
	p->n = 0;
	p->allowed = NULL;
	p->nallowed = 0;
	int rc = data_dir ? add(p, data_dir, strlen(data_dir)) : 0;
	const char *env = getenv("HERALD_DATA_PATH");
	while (rc == 0 && env && *env) {
		const char *colon = strchr(env, ':');
		size_t n = colon ? (size_t)(colon - env) : strlen(env);
		rc = add(p, env, n);
		env = colon ? colon + 1 : NULL;
	}
	/* Only the installed data: no build-tree path is compiled in.  An
	 * uninstalled build is given its data through HERALD_DATA_PATH (the
	 * tests, setup.sh) or --data-dir. */
	if (rc == 0)
		rc = add(p, HERALD_PKGDATADIR, strlen(HERALD_PKGDATADIR));
	if (rc != 0)
		hg_datapath_free(p);
	return rc;
}

void hg_datapath_init(hg_datapath *p, const char *data_dir)
{
	HG_PAUSED(hg_datapath_try_init(p, data_dir));	/* (aborts short of memory, as always) */
}

void hg_datapath_free(hg_datapath *p)
{
	hg_strv_free(p->dirs, p->n);
	hg_strv_free(p->allowed, p->nallowed);
	p->dirs = NULL;
	p->n = 0;
	p->allowed = NULL;
	p->nallowed = 0;
}

void hg_datapath_allow(hg_datapath *p, const char *dir)
{
	p->allowed = hg_xrealloc(p->allowed, (p->nallowed + 1) * sizeof *p->allowed);
	p->allowed[p->nallowed++] = hg_xstrdup(dir);
}

char *hg_datapath_find(const hg_datapath *p, const char *relname)
{
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < p->n; i++) {
		hg_buf_clear(&b);
		hg_buf_printf(&b, "%s/%s", p->dirs[i], relname);
		struct stat st;
		if (!hg_buf_failed(&b) && stat(b.data, &st) == 0 && S_ISREG(st.st_mode))
			return hg_buf_steal(&b);
	}
	hg_buf_free(&b);
	return NULL;
}
