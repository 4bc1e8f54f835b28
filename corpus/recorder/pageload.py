"""Decide from a recorded trace whether the page itself loaded.

A trace is written whatever happens to the page, so a finished recording is
not a recorded site. The browser's own view of the main document decides:
the renderer writes ResourceSendRequest (resourceType Document) for it when
the navigation commits, then ResourceReceiveResponse with the HTTP status and
ResourceFinish. A page whose server never answers commits nothing, so none
of the three appear within the trace.
"""


def _data(event):
    args = event.get("args")
    data = args.get("data") if isinstance(args, dict) else None
    return data if isinstance(data, dict) else {}


def page_failure(trace, url, duration_s):
    """None if `url` loaded as a document in `trace`, else the reason it did not."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    request_ids = {_data(e).get("requestId") for e in events
                   if e.get("name") == "ResourceSendRequest"
                   and _data(e).get("url") == url
                   and _data(e).get("resourceType") == "Document"}
    request_ids.discard(None)
    if not request_ids:
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
