# Python's requests in its own process; same protocol as fetch-client.mjs.
import json, sys, time
import requests

cases = json.load(open(sys.argv[1]))
for c in cases:
    data = open(c['file'], 'rb').read()
    if c.get('stall'):
        # requests sends a generator chunked and reads nothing until it is exhausted: the first bytes,
        # a pause longer than the server waits, then the rest.
        def body(data=data):
            yield data
            time.sleep(c['stall'])
            yield b'\x01' * 65536
        data = body()
    try:
        r = requests.post(c['url'], data=data, headers=c['headers'], timeout=60)
        print(json.dumps({'name': c['name'], 'status': r.status_code, 'body': r.text[:500]}), flush=True)
    except Exception as e:
        print(json.dumps({'name': c['name'], 'error': f'{type(e).__name__} {e}'[:300]}), flush=True)
