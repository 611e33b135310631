"""The stock en-us model's Gaussians and the features its decoder sees, read in numpy, for
estimating an MLLR transform of the means (trainer.speech.enrolment).

The model is pocketsphinx's phonetically tied mixture model: 42 codebooks (one per base phone,
in the model definition's order), 3 streams of 13 (cepstra, deltas, double deltas: the
`-svspec 0-12/13-25/26-38` of its feat.params), 128 Gaussians with diagonal covariances; each
of the 5126 senones weights its phone's codebook (`sendump`, 8-bit -log weights). The features:
the 13 cepstra pocketsphinx itself computed (`mfclogdir`), the cepstral mean taken off as the
decoder does it for a whole utterance from a fresh front end (batch CMN over the frames whose
c0 is not negative), the deltas of its `1s_c_d_dd` with the first and last frame repeated.
That is the recogniser's front end (trainer.speech.recogniser: `cmn batch`, each utterance decoded
whole from a fresh stream): the mean the decoder reports after an utterance is this one.
"""

from __future__ import annotations

import os
import struct
from functools import cache
from pathlib import Path

import numpy as np

#: the base phones in the model definition's order: a senone's codebook is its phone's index
PHONES = ("+NSN+", "+SPN+", "AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER",
          "EY", "F", "G", "HH", "IH", "IY", "JH", "K", "L", "M", "N", "NG", "OW", "OY", "P", "R",
          "S", "SH", "SIL", "T", "TH", "UH", "UW", "V", "W", "Y", "Z", "ZH")
VARFLOOR = 1e-4
#: pocketsphinx's log base and the shift of its 8-bit mixture weights
LOG_BASE = 1.0001
SENSCR_SHIFT = 10


def read_gauden(path: Path) -> np.ndarray:
    """A sphinx-3 Gaussian parameter file as an array [codebook, stream, density, dim]."""
    data = path.read_bytes()
    i = data.index(b"endhdr\n") + len("endhdr\n")
    magic, n_cb, n_feat, n_den = struct.unpack_from("<4I", data, i)
    if magic != 0x11223344:
        raise ValueError(f"{path}: unexpected byte order")
    lens = struct.unpack_from(f"<{n_feat}I", data, i + 16)
    total, = struct.unpack_from("<I", data, i + 16 + 4 * n_feat)
    if len(set(lens)) != 1 or total != n_cb * n_den * sum(lens):
        raise ValueError(f"{path}: streams of unequal length are not handled")
    vals = np.frombuffer(data, "<f4", total, i + 20 + 4 * n_feat)
    return vals.reshape(n_cb, n_feat, n_den, lens[0]).astype(np.float64)


def read_sendump(path: Path, n_feat: int, n_den: int) -> np.ndarray:
    """The mixture weights as natural logs, [senone, stream, density]."""
    data = path.read_bytes()
    o = 0
    for _ in range(2):  # title, header
        n, = struct.unpack_from("<i", data, o)
        o += 4 + n
    while True:
        n, = struct.unpack_from("<i", data, o)
        o += 4
        if n == 0:
            break
        if data[o: o + n].startswith(b"cluster_count ") and data[o + 14: o + n - 1] != b"0":
            raise ValueError("clustered mixture weights are not handled")
        o += n
    rows, cols = struct.unpack_from("<2i", data, o)
    o += 8
    if rows != n_den:
        raise ValueError(f"{path}: {rows} densities, the means have {n_den}")
    q = np.frombuffer(data, np.uint8, n_feat * rows * cols, o).reshape(n_feat, rows, cols)
    return -(q.astype(np.float64) * (1 << SENSCR_SHIFT)).transpose(2, 0, 1) * np.log(LOG_BASE)


class Model:
    """Means, variances (floored as the decoder floors them) and mixture weights."""

    def __init__(self, folder: Path) -> None:
        self.means = read_gauden(folder / "means")
        self.var = np.maximum(read_gauden(folder / "variances"), VARFLOOR)
        self.n_feat, self.n_den, self.dim = self.means.shape[1:]
        self.logw = read_sendump(folder / "sendump", self.n_feat, self.n_den)
        self._logdet = -0.5 * np.log(2 * np.pi * self.var).sum(axis=-1)

    def adapted(self, A: np.ndarray, b: np.ndarray) -> Model:
        """The model with every mean moved to A mu + b (per stream), as pocketsphinx applies an
        MLLR file."""
        m = Model.__new__(Model)
        m.__dict__.update(self.__dict__)
        m.means = np.einsum("fij,cfdj->cfdi", A, self.means) + b[None, :, None, :]
        return m

    def log_gauss(self, cb: int, feat: np.ndarray) -> np.ndarray:
        """log N(o_t; mu, var) of every density of one codebook: [frame, stream, density]. The
        square (o - mu)^2 / var is summed as o^2 / var - 2 o mu / var + mu^2 / var, in matrix
        products: no array of every frame, density and dimension is made."""
        mu, iv = self.means[cb], 1 / self.var[cb]  # [stream, density, dim]
        o = feat.reshape(len(feat), self.n_feat, self.dim).transpose(1, 0, 2)  # [stream, frame, dim]
        square = ((o * o) @ iv.transpose(0, 2, 1) - 2 * (o @ (mu * iv).transpose(0, 2, 1))
                  + (mu * mu * iv).sum(axis=-1)[:, None, :])  # [stream, frame, density]
        return (self._logdet[cb][:, None, :] - 0.5 * square).transpose(1, 0, 2)


@cache
def model() -> Model:
    """The recogniser's model (pocketsphinx's en-us), read once per process."""
    import pocketsphinx

    return Model(Path(pocketsphinx.get_model_path()) / "en-us" / "en-us")


def features(cep: np.ndarray) -> np.ndarray:
    """39-dimensional features of an utterance's cepstra [frame, 13], as the decoder makes them
    for a whole utterance: batch CMN, then deltas over +-2 frames and double deltas."""
    keep = cep[:, 0] >= 0
    c = cep - cep[keep].mean(axis=0) if keep.any() else cep.copy()
    pad = np.concatenate([np.repeat(c[:1], 3, 0), c, np.repeat(c[-1:], 3, 0)])
    n = len(c)
    at = lambda k: pad[3 + k: 3 + k + n]  # noqa: E731 (frame t+k)
    d = at(2) - at(-2)
    dd = (at(3) - at(-1)) - (at(1) - at(-3))
    return np.concatenate([c, d, dd], axis=1)


def read_mfc(path: str | os.PathLike) -> np.ndarray:
    """A sphinx cepstra file (big-endian): an int32 count of floats, then the floats, 13 per
    frame."""
    data = Path(path).read_bytes()
    n, = struct.unpack_from(">i", data, 0)
    return np.frombuffer(data, ">f4", n, 4).reshape(-1, 13).astype(np.float64)
