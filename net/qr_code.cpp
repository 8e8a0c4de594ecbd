#include "net/qr_code.h"

#include <qrencode.h>

namespace diskref::net {

QrMatrix qr_matrix(const std::string& text) {
  QrMatrix m;
  QRcode* code = QRcode_encodeString(text.c_str(), 0, QR_ECLEVEL_L, QR_MODE_8, 1);
  if (!code) return m;
  m.width = code->width;
  m.dark.resize(static_cast<std::size_t>(m.width) * static_cast<std::size_t>(m.width));
  // libqrencode's module byte: its low bit is dark; the others say what the module is part of.
  for (std::size_t i = 0; i < m.dark.size(); ++i) m.dark[i] = code->data[i] & 1;
  QRcode_free(code);
  return m;
}

}  // namespace diskref::net
