/* datapath.c - where game data files are looked for. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

static void add(hg_datapath *p, const char *dir, size_t n)
{
	if (n == 0)
		return;
	p->dirs = hg_xrealloc(p->dirs, (p->n + 1) * sizeof *p->dirs);
	p->dirs[p->n++] = hg_xstrndup(dir, n);
}

void hg_datapath_init(hg_datapath *p, const char *data_dir)
{
	p->dirs = NULL;
	p->n = 0;
	p->allowed = NULL;
	p->nallowed = 0;
	if (data_dir)
		add(p, data_dir, strlen(data_dir));
	const char *env = getenv("HERALD_DATA_PATH");
	while (env && *env) {
		const char *colon = strchr(env, ':');
		size_t n = colon ? (size_t)(colon - env) : strlen(env);
		add(p, env, n);
		env = colon ? colon + 1 : NULL;
	}
	/* Only the installed data: no build-tree path is compiled in.  An
	 * uninstalled build is given its data through HERALD_DATA_PATH (the
	 * tests, setup.sh) or --data-dir. */
	add(p, HERALD_PKGDATADIR, strlen(HERALD_PKGDATADIR));
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
