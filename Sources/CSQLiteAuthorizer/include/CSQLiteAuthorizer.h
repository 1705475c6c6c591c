#ifndef DOSEBAR_SQLITE_AUTHORIZER_H
#define DOSEBAR_SQLITE_AUTHORIZER_H

/* 1 once GRDB's authorizer is registered behind the filter below (authorizer.c), 0 before. */
int dosebar_authorizer_filtering(void);

#endif
