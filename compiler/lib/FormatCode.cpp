//===- FormatCode.cpp - the layout of generated code ----------------------===//
#include "pocc/FormatCode.h"

#include "clang/Format/Format.h"
#include "clang/Tooling/Core/Replacement.h"

using namespace clang;

namespace pocc {

std::string formatCode(llvm::StringRef Code) {
  format::FormatStyle Style = format::getLLVMStyle();
  // Generated comments name files by path; a path broken across two
  // comment lines is useless to a reader and to a regression test. No
  // column limit: a declaration or a method id wrapped over two lines
  // cannot be matched by one line of a golden test.
  Style.ReflowComments = false;
  Style.ColumnLimit = 0;
  Style.BreakTemplateDeclarations = format::FormatStyle::BTDS_No;
  tooling::Range Whole(0, Code.size());
  tooling::Replacements R = format::reformat(Style, Code, {Whole});
  auto Formatted = tooling::applyAllReplacements(Code, R);
  if (!Formatted) {
    llvm::consumeError(Formatted.takeError());
    return Code.str();
  }
  return *Formatted;
}

} // namespace pocc
