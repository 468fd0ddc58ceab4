#!/usr/bin/python3
"""clcapture-debug --dap: a Debug Adapter Protocol client (the JSON messages behind Content-Length headers,
written here) runs a session on the reduction sample captured by the real layer on PoCL, and checks every
response: initialize (capabilities, initialized event), launch, a conditional breakpoint (verified), a stop
there (stopped event, reason breakpoint), threads, stackTrace (the kernel's line), scopes (Private, Local,
Global) and their variables (l and s; the group's scratch and the input buffer, computed here), evaluate (an element computed here from the captured input), next then stepBack (the element's old
value again), a data breakpoint on it (stopped, reason data breakpoint, the new value), setVariable, a request
the server does not know (an error response, the session goes on), disconnect.

usage: dap_test.py --debug BIN --launcher BIN --samples DIR
"""
import argparse
import json
import os
import select
import subprocess
import sys
import tempfile
import time

from debug_testing import Failure, capture_reduce, captured_input, check


class Client:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.seq = 1
        self.pending = []  # messages read but not yet asked for
        self.buffer = b""

    def send(self, command, arguments=None):
        message = {"seq": self.seq, "type": "request", "command": command}
        if arguments is not None:
            message["arguments"] = arguments
        self.seq += 1
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        print(f"-> {command} {json.dumps(arguments) if arguments else ''}", flush=True)
        return message["seq"]

    def _read(self, timeout=120):
        deadline = time.monotonic() + timeout
        while True:
            header_end = self.buffer.find(b"\r\n\r\n")
            if header_end >= 0:
                length = int(self.buffer[:header_end].split(b":")[1])
                start = header_end + 4
                if len(self.buffer) >= start + length:
                    message = json.loads(self.buffer[start:start + length])
                    self.buffer = self.buffer[start + length:]
                    print(f"<- {json.dumps(message)[:300]}", flush=True)
                    return message
            left = deadline - time.monotonic()
            check(left > 0, "no message from the server in time")
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            chunk = os.read(self.proc.stdout.fileno(), 65536) if ready else b""
            if not chunk:
                raise Failure("the server closed its output: " + self.proc.stderr.read().decode()[-2000:])
            self.buffer += chunk

    def wait(self, want):
        """The first message `want` accepts (earlier ones are kept)."""
        for i, m in enumerate(self.pending):
            if want(m):
                return self.pending.pop(i)
        while True:
            m = self._read()
            if want(m):
                return m
            self.pending.append(m)

    def request(self, command, arguments=None, success=True):
        seq = self.send(command, arguments)
        r = self.wait(lambda m: m.get("type") == "response" and m.get("request_seq") == seq)
        check(r["success"] == success, f"{command}: success {r['success']}, expected {success}: {r.get('message')}")
        return r

    def event(self, name):
        return self.wait(lambda m: m.get("type") == "event" and m.get("event") == name)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--debug", required=True)
    p.add_argument("--launcher", required=True)
    p.add_argument("--samples", required=True)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "cap")
        try:
            capture_reduce(args.launcher, args.samples, folder)
        except Failure as e:
            print("FAIL: the capture failed: " + str(e))
            return 1
        data = captured_input(folder)
        with open(os.path.join(folder, "captures.json")) as f:
            inst = json.load(f)[0]
        kernel = os.path.join(folder, inst["kernel_file"])
        client = Client([args.debug, folder, "--dap"])
        try:
            caps = client.request("initialize", {"adapterID": "clcapture", "linesStartAt1": True})["body"]
            check(caps.get("supportsStepBack") and caps.get("supportsDataBreakpoints") and
                  caps.get("supportsConditionalBreakpoints") and caps.get("supportsSetVariable"), "capabilities")
            client.event("initialized")
            client.request("launch", {"program": folder})
            bps = client.request("setBreakpoints", {"source": {"path": kernel},
                                                    "breakpoints": [{"line": 7, "condition": "l == 1"}]})
            check(bps["body"]["breakpoints"][0]["verified"] and bps["body"]["breakpoints"][0]["line"] == 7,
                  "the conditional breakpoint is not verified")
            bad = client.request("setBreakpoints", {"source": {"path": kernel}, "breakpoints": [{"line": 7},
                                                                                               {"line": 10}]})
            check(bad["body"]["breakpoints"][1]["verified"] is False, "a line without code was verified")
            client.request("setBreakpoints", {"source": {"path": kernel},
                                              "breakpoints": [{"line": 7, "condition": "l == 1"}]})
            client.request("configurationDone")
            stop = client.event("stopped")
            check(stop["body"]["reason"] == "breakpoint", f"stopped for {stop['body']['reason']}")
            threads = client.request("threads")["body"]["threads"]
            check(threads == [{"id": 1, "name": "work-item (1)"}], f"threads: {threads}")
            frames = client.request("stackTrace", {"threadId": 1})["body"]["stackFrames"]
            check(frames[0]["name"] == "reduce" and frames[0]["line"] == 7 and
                  os.path.samefile(frames[0]["source"]["path"], kernel), f"stackTrace: {frames}")
            scopes = client.request("scopes", {"frameId": 0})["body"]["scopes"]
            refs = {s["name"]: s["variablesReference"] for s in scopes}
            check(sorted(refs) == ["Global", "Local", "Private"], f"scopes: {scopes}")
            locals_ref = refs["Private"]
            variables = client.request("variables", {"variablesReference": locals_ref})["body"]["variables"]
            values = {v["name"]: v["value"] for v in variables}
            check(values.get("l") == "1" and values.get("s") == "4", f"private variables: {values}")
            local = {v["name"]: v["value"] for v in
                     client.request("variables", {"variablesReference": refs["Local"]})["body"]["variables"]}
            # Line 7 at s = 4, before work-item 1 adds: 0 has added in[4], the others hold their input.
            expect = [data[0] + data[4]] + list(data[1:8])
            check(local.get("scratch[0..7]") == "{" + ", ".join(str(v) for v in expect) + "}", f"local: {local}")
            glob = {v["name"]: v["value"] for v in
                    client.request("variables", {"variablesReference": refs["Global"]})["body"]["variables"]}
            check(glob.get("in[0..15]") == "{" + ", ".join(str(v) for v in data[:16]) + "}", f"global: {glob}")
            element = client.request("evaluate", {"expression": "scratch[l]"})["body"]["result"]
            check(element == str(data[1]), f"scratch[1] = {element}, expected in[1] = {data[1]}")
            client.request("evaluate", {"expression": "nothing"}, success=False)
            client.request("next", {"threadId": 1})
            client.event("stopped")
            after = client.request("evaluate", {"expression": "scratch[1]"})["body"]["result"]
            check(after == str(data[1] + data[5]), f"after next scratch[1] = {after}")
            client.request("stepBack", {"threadId": 1})
            check(client.event("stopped")["body"]["reason"] == "step", "stepBack did not stop")
            back = client.request("evaluate", {"expression": "scratch[1]"})["body"]["result"]
            check(back == str(data[1]), f"after stepBack scratch[1] = {back}, expected the old {data[1]}")
            info = client.request("dataBreakpointInfo", {"name": "scratch[1]"})["body"]
            data_bps = client.request("setDataBreakpoints", {"breakpoints": [{"dataId": info["dataId"]}]})
            check(data_bps["body"]["breakpoints"][0]["verified"], "the data breakpoint is not verified")
            client.request("setBreakpoints", {"source": {"path": kernel}, "breakpoints": []})
            client.request("continue", {"threadId": 1})
            stop = client.event("stopped")
            check(stop["body"]["reason"] == "data breakpoint", f"stopped for {stop['body']['reason']}")
            changed = client.request("evaluate", {"expression": "scratch[1]"})["body"]["result"]
            check(changed == str(data[1] + data[5]), f"the watched scratch[1] = {changed}")
            set_var = client.request("setVariable", {"variablesReference": locals_ref, "name": "s", "value": "3"})
            check(set_var["body"]["value"] == "3", f"setVariable: {set_var['body']}")
            check(client.request("evaluate", {"expression": "s"})["body"]["result"] == "3", "s after setVariable")
            client.request("frobnicate", success=False)
            client.request("disconnect")
            client.proc.wait(timeout=60)
            check(client.proc.returncode == 0, f"the server exited {client.proc.returncode}")
        except Failure as e:
            client.proc.kill()
            print("FAIL: " + str(e))
            return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
