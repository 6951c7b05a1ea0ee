//===- TranslationLayout.cpp - Where generated code goes ------------------===//
#include "pocc/TranslationLayout.h"

#include "pocc/Config.h"
#include "pocc/FormatCode.h"
#include "pocc/LayoutHash.h"
#include "pocc/SerializerGen.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace pocc {

void TranslationLayout::noteUseAt(const RemoteClass &C, const Decl *Top) {
  if (Declared.insert(&C).second) {
    FirstUse.emplace_back(&C, Top);
    return;
  }
  for (auto &[Unit, At] : FirstUse)
    if (Unit == &C && Top &&
        (!At || SM.isBeforeInTranslationUnit(Top->getBeginLoc(), At->getBeginLoc())))
      At = Top;
}

std::string TranslationLayout::forwardDeclaration(const CXXRecordDecl *RD) const {
  std::string Open, Close;
  for (const DeclContext *DC = RD->getDeclContext(); DC && !DC->isTranslationUnit();
       DC = DC->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(DC);
    if (!NS)
      return {}; // nested classes cannot be declared from outside
    Open = (NS->isInline() ? "inline namespace " : "namespace ") + NS->getNameAsString() + " {\n" +
           Open;
    Close += "}\n";
  }
  return Open + (RD->isStruct() ? "struct " : "class ") + RD->getNameAsString() + ";\n" + Close;
}

std::string TranslationLayout::insertionBlock(const Decl *Top, llvm::StringRef Body) const {
  // Leave the namespaces the declaration is in, and re-enter them after.
  // `namespace a::b {` is one block with one brace: it is left and
  // re-entered as written.
  std::string Close, Open, Nested;
  for (const DeclContext *DC = Top->getLexicalDeclContext(); DC && !DC->isTranslationUnit();
       DC = DC->getLexicalParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      Nested = (NS->isInline() && NS->isNested() ? "inline " : "") + NS->getNameAsString() +
               (Nested.empty() ? "" : "::") + Nested;
      if (NS->isNested())
        continue;
      Close += "} // namespace " + Nested + "\n";
      Open = (NS->isInline() ? "inline namespace " : "namespace ") + Nested +
             (NS->isAnonymousNamespace() ? "" : " ") + "{\n" + Open;
      Nested.clear();
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC)) {
      Close += "}\n";
      Open = std::string(LS->getLanguage() == LinkageSpecLanguageIDs::C ? "extern \"C\" {\n"
                                                                        : "extern \"C++\" {\n") +
             Open;
    }
  }
  return Close + Body.str() + Open;
}

std::string TranslationLayout::generateEnd(const std::vector<const RemoteClass *> &Servers,
                                           DependentCalls *Dependent) {
  std::string Decls, Access, Serial, Clients, ServerCode;
  for (const auto &[C, Top] : FirstUse)
    if (!Top)
      Decls += declarationsOf(*C, Dependent);
  for (const RemoteClass *C : Servers)
    if (Declared.insert(C).second)
      Decls += declarationsOf(*C, Dependent);
  for (const auto &[C, Top] : FirstUse)
    Clients += Gen.emitClientDefinitions(*C) + Gen.emitMethodRegistration(*C);
  for (const RemoteClass *C : Specialised)
    Clients += Dependent->emitDefinitions(*C);
  for (const RemoteClass *C : Servers)
    ServerCode += Gen.emitServer(*C);
  // Every served class whose state can be saved gets a Serializer, so any
  // process can be made persistent, by this program or by another one.
  for (const RemoteClass *C : Servers)
    Sendable.checkState(C->Decl);
  bool NeedsAccess = false;
  for (const CXXRecordDecl *RD : Sendable.classes()) {
    Serial += emitSerializer(RD) + emitLayoutHash(RD);
    for (const FieldDecl *F : RD->fields())
      NeedsAccess |= F->getAccess() != AS_public;
  }
  // A served class that writes itself, with no version of its own: its
  // layout hash comes from its fields too.
  for (const RemoteClass *C : Servers)
    if (needsGeneratedLayoutHash(C->Decl))
      Serial += emitLayoutHash(C->Decl);
  if (NeedsAccess)
    Access = emitFieldAccessPrelude();
  std::string End = "\n// poc++: code generated for " + Copies.sourceName() + ".\n" + Decls +
                    Access + Serial + Clients + ServerCode;
  if (Main)
    End += "// poc++: the program starts the runtime, which runs the user's "
           "main.\nint main(int argc, char **argv) {\nreturn ::poc::run(argc, "
           "argv, &poc_user_main);\n}\n";
  return formatCode(End);
}

void TranslationLayout::placeSpecialisations(DependentCalls &Dependent) {
  if (Dependent.empty())
    return;
  Specialised = Dependent.specialisedClasses();
  for (const RemoteClass *C : Specialised) {
    // The first declaration after the class (templates are instantiated
    // by code that comes after it), unless the class is used earlier.
    const Decl *After = nullptr;
    for (const Decl *Top : Tops)
      if (SM.isBeforeInTranslationUnit(C->Decl->getEndLoc(), Top->getBeginLoc())) {
        After = Top;
        break;
      }
    for (const RemoteClass *Unit : Dependent.unitsCalledBy(*C))
      noteUseAt(*Unit, After);
    noteUseAt(*C, After);
  }
}

std::string TranslationLayout::declarationsOf(const RemoteClass &C, DependentCalls *Dependent) {
  std::string S = Gen.emitDeclarations(C);
  if (std::find(Specialised.begin(), Specialised.end(), &C) != Specialised.end())
    S += Dependent->emitSpecialisation(C);
  return S;
}

bool TranslationLayout::assemble(const std::vector<const RemoteClass *> &Servers,
                                 DependentCalls *Dependent,
                                 const std::vector<IncludeDirective> &Includes,
                                 llvm::StringRef GeneratedName, std::string &Output) {
  // Interface and client declarations before the first use of each unit.
  std::map<const Decl *, std::string> Blocks;
  std::vector<const Decl *> Order;
  if (Dependent)
    placeSpecialisations(*Dependent);
  for (const auto &[C, Top] : FirstUse) {
    if (!Top)
      continue; // declared at the end
    std::string Fwd;
    if (SM.isBeforeInTranslationUnit(Top->getBeginLoc(), C->Decl->getBeginLoc()) ||
        Top->getBeginLoc() == C->Decl->getBeginLoc())
      Fwd = forwardDeclaration(C->Decl);
    if (!Blocks.count(Top))
      Order.push_back(Top);
    Blocks[Top] += Fwd + declarationsOf(*C, Dependent);
  }
  std::string End = generateEnd(Servers, Dependent);
  for (const Decl *Top : Order) {
    SourceLocation Begin = SM.getExpansionLoc(Top->getBeginLoc());
    unsigned Line = SM.getExpansionLineNumber(Begin);
    unsigned Col = SM.getExpansionColumnNumber(Begin);
    std::string Text = GenLineMarker.str() + formatCode(insertionBlock(Top, Blocks[Top])) +
                       lineDirective(Line, Copies.fileName(SM.getFileID(Begin)));
    if (Col == 1)
      R.InsertTextBefore(Begin, Text);
    else
      R.InsertTextBefore(Begin, "\n" + Text + std::string(Col - 1, ' '));
  }

  if (!Copies.write(R, Includes))
    return false;
  const RewriteBuffer *Buf = R.getRewriteBufferFor(SM.getMainFileID());
  std::string Body =
      Buf ? std::string(Buf->begin(), Buf->end()) : SM.getBufferData(SM.getMainFileID()).str();
  if (!Body.empty() && Body.back() != '\n')
    Body += '\n';
  std::string Include = std::string("#include <") + config::GeneratedCodeHeader + ">\n";
  std::string Text =
      "// Generated by poc++ from " + Copies.sourceName() +
      ". Do not edit: edit the source and regenerate.\n" + Include +
      (Dependent && !Dependent->empty() ? GenLineMarker.str() + formatCode(Dependent->emitHelpers())
                                        : "") +
      lineDirective(1, Copies.sourceName()) + Body + GenLineMarker.str() + End;
  // Resolve the markers now that the generated file's lines are known.
  Output = resolveGeneratedLines(Text, GeneratedName.empty() ? "<poc++ generated>" : GeneratedName);
  return true;
}

} // namespace pocc
