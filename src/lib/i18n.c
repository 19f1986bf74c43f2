/* i18n.c - herald's messages in the user's language (GNU gettext).  The
 * library translates in its own text domain, "herald", so that a program
 * linking libherald gets its diagnostics translated once it has called
 * setlocale(), whatever its own domain.  The catalogue is bound on the
 * first translation, once for every thread.  Translations are UTF-8, as
 * records and every other text herald writes are. */
#include "config.h"

#include <stdlib.h>

#include "internal.h"

#if ENABLE_NLS
#include <libintl.h>
#include <pthread.h>

#define HG_TEXT_DOMAIN "herald"

static pthread_once_t bound = PTHREAD_ONCE_INIT;

/* HERALD_LOCALEDIR points at catalogues not yet installed (the test of
 * the Spanish messages runs the build tree's herald). */
static void bind_domain(void)
{
	const char *dir = secure_getenv("HERALD_LOCALEDIR");
	bindtextdomain(HG_TEXT_DOMAIN, dir && *dir ? dir : HERALD_LOCALEDIR);
	bind_textdomain_codeset(HG_TEXT_DOMAIN, "UTF-8");
}

const char *hg_gettext(const char *msgid)
{
	pthread_once(&bound, bind_domain);
	return dgettext(HG_TEXT_DOMAIN, msgid);
}

const char *hg_ngettext(const char *msgid, const char *plural, unsigned long n)
{
	pthread_once(&bound, bind_domain);
	return dngettext(HG_TEXT_DOMAIN, msgid, plural, n);
}
#else
const char *hg_gettext(const char *msgid)
{
	return msgid;
}

const char *hg_ngettext(const char *msgid, const char *plural, unsigned long n)
{
	return n == 1 ? msgid : plural;
}
#endif
