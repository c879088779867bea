// The authority's session identifiers (a login form's ;jsessionid=, the cookies JSESSIONID,
// AFIPSID, SESSION_TOKEN, ASPSESSIONID…, ASP.NET_SessionId) are as good as a password while
// they live: no error, log line, CLI output or capture keeps their values (docs/authority.md).

const internals = {
    matrix: /;jsessionid=[^/?#&\s"'<>;,)]*/gi,
    cookie: /\b(JSESSIONID|AFIPSID|SESSION_TOKEN|ASPSESSIONID[A-Z]*|ASP\.NET_SessionId)(\s*[=:]\s*)("?)[^;&\s"'<>,)]+/gi
};

export const withoutSessionIds = (text: string): string => text
    .replace(internals.matrix, '')
    .replace(internals.cookie, '$1$2$3[redactado]');
