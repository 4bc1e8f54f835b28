"""Decide from a recorded trace whether the page itself loaded.

A trace is written whatever happens to the page, so a finished recording is
not a recorded site. The browser's own view of the main document decides:
the renderer writes ResourceSendRequest (resourceType Document) for it when
the navigation commits, then ResourceReceiveResponse with the HTTP status and
ResourceFinish. A page whose server never answers commits nothing, so none
of the three appear within the trace. A navigation that fails before any
answer (connection refused, a name that does not resolve) commits Chrome's
own error page, chrome-error://chromewebdata/, in the page's place; the
net error itself is in no event of the categories users record.
"""


def _data(event):
    args = event.get("args")
    data = args.get("data") if isinstance(args, dict) else None
    return data if isinstance(data, dict) else {}


EVENT_NAMES = frozenset({"ResourceSendRequest", "ResourceReceiveResponse", "ResourceFinish",
                         "CommitLoad"})


def page_pid(events):
    """The renderer process of the page shown last: the pid of the last
    main-frame commit of an http(s) document (Chrome's own WebUI pages commit
    main frames too), or None when there is none."""
    commits = [e for e in events if e.get("name") == "CommitLoad"
               and _data(e).get("isMainFrame")
               and str(_data(e).get("url", "")).startswith(("http://", "https://"))]
    return commits[-1].get("pid") if commits else None


def page_failure(events, url, duration_s):
    """None if `url` loaded as a document in the trace's EVENTS, else the reason it did not."""
    request_ids = {_data(e).get("requestId") for e in events
                   if e.get("name") == "ResourceSendRequest"
                   and _data(e).get("url") == url
                   and _data(e).get("resourceType") == "Document"}
    request_ids.discard(None)
    if not request_ids:
        if any(str(_data(e).get("url", "")).startswith("chrome-error://") for e in events
               if e.get("name") == "CommitLoad" and _data(e).get("isMainFrame")):
            return ("Chrome could not load %s and showed its error page (no connection, "
                    "a name that does not resolve, or the like)" % url)
        return "no response for %s within the %d s trace" % (url, duration_s)
    statuses = [_data(e).get("statusCode") for e in events
                if e.get("name") == "ResourceReceiveResponse"
                and _data(e).get("requestId") in request_ids]
    failed = [s for s in statuses if isinstance(s, int) and s >= 400]
    if failed:
        return "HTTP %d for %s" % (failed[0], url)
    if not statuses:
        return "no response for %s within the %d s trace" % (url, duration_s)
    for e in events:
        d = _data(e)
        if e.get("name") == "ResourceFinish" and d.get("requestId") in request_ids \
                and d.get("didFail"):
            return "loading %s failed (net error %s)" % (url, d.get("errorCode", "unknown"))
    return None
