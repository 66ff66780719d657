"""A second DevTools Protocol client on a Selenium-driven Chromium, for what chromedriver's
`execute_cdp_cmd` cannot do: read events (the service worker's registration id) and run code
in another target (the service worker itself). It talks to the browser's own endpoint (the
`debuggerAddress` chromedriver reports) over websocket-client, a dependency of Selenium, and
attaches to targets in flat mode, so each command names its session."""
import json
import time
import urllib.request


class DevTools:
    def __init__(self, driver):
        import websocket
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as reply:
            url = json.load(reply)["webSocketDebuggerUrl"]
        self.socket = websocket.create_connection(url, timeout=10, suppress_origin=True)
        self.next_id = 0
        self.events = []

    def close(self):
        self.socket.close()

    def send(self, method, params=None, session=None):
        """Sends one command and returns its result (events read meanwhile are kept)."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        while True:
            reply = json.loads(self.socket.recv())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise AssertionError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def event(self, method, matches=lambda params: True, timeout=10):
        """The params of the first event `method` (kept or arriving) that `matches`."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event["method"] == method and matches(event["params"]):
                    return event["params"]
            if time.monotonic() > deadline:
                raise AssertionError(f"no {method} event within {timeout} s")
            self.socket.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                self.events.append(json.loads(self.socket.recv()))
            except Exception:  # the wait ran out: look once more, then fail
                pass
            finally:
                self.socket.settimeout(10)

    def attach(self, kind, url_part):
        """A session on the first target of `kind` ('page', 'service_worker') whose URL contains
        `url_part`."""
        targets = self.send("Target.getTargets")["targetInfos"]
        target = next(t for t in targets if t["type"] == kind and url_part in t["url"])
        return self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]

    def evaluate(self, session, expression):
        """Evaluates `expression` (awaited if a promise) in the target of `session`; its value."""
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, session)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")
